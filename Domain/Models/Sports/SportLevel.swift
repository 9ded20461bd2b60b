import Foundation

/// How well a rider rides a sport.
public enum SportLevel: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case beginner
    case intermediate
    case expert

    public var description: String { rawValue }
}

import Foundation

/// The part a rider plays in the community.
public enum RiderType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Offers to ride with and teach others.
    case mentor
    /// Looks for someone to learn from.
    case learner

    public var description: String { rawValue }
}

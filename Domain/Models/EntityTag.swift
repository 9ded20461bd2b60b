import Foundation

/// An HTTP entity tag (RFC 9110 §8.8.3) as the server sent it, quotes included.
///
/// Kept opaque: the client only ever echoes it back in `If-Match` / `If-None-Match`.
public struct EntityTag: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Whether this is a weak validator (`W/"…"`), which `If-Match` never matches.
    public var isWeak: Bool { rawValue.hasPrefix("W/") }

    public var description: String { rawValue }
}

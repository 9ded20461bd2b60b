import Foundation

/// What an account may do on the server.
///
/// Unknown roles from a newer server are kept verbatim rather than rejected,
/// so an older client keeps working.
public struct Role: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let user = Role(rawValue: "user")
    public static let admin = Role(rawValue: "admin")

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}

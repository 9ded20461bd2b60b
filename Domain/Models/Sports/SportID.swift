import Foundation

/// The server's identifier of a sport in the catalogue (for example `gravel`).
///
/// A distinct type so a sport id cannot be confused with a sport's display name.
public struct SportID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The longest id the API accepts.
    package static let maximumLength = 40

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// Checks the id's form before it goes into a URL path: 1 to 40 lowercase letters, digits
    /// or `-`, as the catalogue spells them.
    /// - Throws: `RiderError.invalidInput(_:)` naming the `sport` field.
    package func validated() throws -> SportID {
        let allowed = rawValue.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
        guard !rawValue.isEmpty, rawValue.count <= Self.maximumLength, allowed else {
            throw RiderError.invalidInput([FieldProblem(
                field: "sport",
                message: "must be a sport id of 1 to \(Self.maximumLength) lowercase letters, digits or '-', "
                    + "as the sport catalogue spells them")]).suggesting(.listSports)
        }
        return self
    }
}

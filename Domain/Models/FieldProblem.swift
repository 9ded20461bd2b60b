import Foundation

/// Why one input field was rejected, in words a person can act on.
public struct FieldProblem: Hashable, Sendable, Codable, CustomStringConvertible {
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}

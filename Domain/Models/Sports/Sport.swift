import Foundation

/// A sport of the server's catalogue.
public struct Sport: Identifiable, Hashable, Sendable {
    public var id: SportID
    /// The name people read (`Mountain bike`).
    public var name: String

    public init(id: SportID, name: String) {
        self.id = id
        self.name = name
    }
}

import Foundation

/// Why ``ReferenceServer/start(_:)`` failed.
public enum ReferenceServerError: Error, Equatable, Sendable, LocalizedError {
    /// A setting is out of range; the message names it.
    case invalidConfiguration(String)
    /// The server stopped before it listened, usually because the port is taken.
    case couldNotStart(String)

    public var errorDescription: String? {
        switch self {
        case .invalidConfiguration(let message):
            "Invalid reference server configuration: \(message)."
        case .couldNotStart(let reason):
            "The reference server could not start: \(reason)."
        }
    }
}

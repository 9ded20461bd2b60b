import Foundation

/// Failures of the command-line front end itself, before RiderKit is involved. Messages are
/// whole sentences, like ``RiderError``'s.
enum CLIError: Error, LocalizedError, Sendable {
    /// The command line or its input is not usable (exit code 2).
    case usage(String)

    var errorDescription: String? {
        switch self {
        case .usage(let message): return message
        }
    }
}

import Foundation
import Logging

/// Prints `--verbose` request lines to stderr as `rider: <message>`.
///
/// Only messages are printed, never metadata: the messages come from RiderKit's
/// `LoggingMiddleware`, which already leaves out headers, query strings and bodies.
struct StandardErrorLogHandler: LogHandler {
    var logLevel: Logger.Level = .debug
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    /// What each line starts with.
    var prefix = "rider: "

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        Console.standardError(prefix + "\(event.message)")
    }
}

import Logging
import Synchronization

/// A swift-log handler that keeps every message logged through it, as "level message", so a test
/// can read exactly what a logger was told (and check that no secret was among it).
package final class CapturingLogLines: LogHandler, Sendable {
    package let lines = Mutex<[String]>([])

    package init() {}

    /// A logger at trace level that writes here.
    package func logger(label: String = "test") -> Logger {
        Logger(label: label) { _ in self }
    }

    /// Every line so far.
    package var all: [String] { lines.withLock { $0 } }

    package var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    package var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    package subscript(metadataKey _: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }
    package func log(event: LogEvent) {
        lines.withLock { $0.append("\(event.level) \(event.message)") }
    }
}

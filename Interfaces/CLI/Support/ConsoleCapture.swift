import Synchronization

/// What ``Console`` wrote while ``Console/capture`` named this buffer, byte for byte as it would
/// have reached stdout and stderr.
final class ConsoleCapture: Sendable {
    private let text = Mutex((standardOutput: "", standardError: ""))

    /// Everything written to stdout.
    var standardOutput: String { text.withLock { $0.standardOutput } }

    /// Everything written to stderr.
    var standardError: String { text.withLock { $0.standardError } }

    func append(_ line: String, toStandardError: Bool) {
        text.withLock { text in
            if toStandardError { text.standardError += line } else { text.standardOutput += line }
        }
    }
}

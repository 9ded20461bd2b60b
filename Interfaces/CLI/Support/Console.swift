import Foundation

/// Writes whole lines to stdout and stderr.
///
/// Unbuffered `FileHandle` writes, so a line is out before the process exits with a code.
enum Console {
    static func standardOutput(_ text: String) {
        write(text, to: .standardOutput)
    }

    static func standardError(_ text: String) {
        write(text, to: .standardError)
    }

    static func standardOutput(lines: [String]) {
        guard !lines.isEmpty else { return }
        standardOutput(lines.joined(separator: "\n"))
    }

    private static func write(_ text: String, to handle: FileHandle) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        // A closed pipe (`rider … | head -1`) is not worth an error message.
        try? handle.write(contentsOf: Data(line.utf8))
    }
}

import Foundation

/// Writes whole lines to stdout and stderr.
///
/// Unbuffered `FileHandle` writes, so a line is out before the process exits with a code.
///
/// Text for people is made terminal-safe here, on its way out, so no output path can forget it:
/// every control character and bidi override becomes a visible escape (``TerminalSafeText``),
/// except line breaks between lines and, on a styled terminal, ``TextStyle``'s own bold and dim.
/// The renderers escape each field as well (a field's own LF or tab included), so alignment is
/// computed on what is shown. JSON goes out exactly as encoded, through the `json:` methods only.
enum Console {
    /// Where the text goes instead of stdout and stderr while set: a test's buffer, so it reads
    /// exactly what a terminal would receive (escaped as described above).
    @TaskLocal static var capture: ConsoleCapture?

    /// Text for a person on stdout; a multi-line text (help) keeps its line breaks.
    static func standardOutput(_ text: String) {
        write(safe(text, keepingStyle: false), toStandardError: false)
    }

    /// Text for a person on stderr: an error, a note, a `--verbose` request line.
    static func standardError(_ text: String) {
        write(safe(text, keepingStyle: false), toStandardError: true)
    }

    /// Lines for a person on stdout.
    /// - Parameter style: the style the lines were rendered with; its escapes are kept when it is on.
    static func standardOutput(lines: [String], style: TextStyle = .plain) {
        guard !lines.isEmpty else { return }
        let shown = lines.map { safe($0, keepingStyle: style.isEnabled) }
        write(shown.joined(separator: "\n"), toStandardError: false)
    }

    /// A JSON document (or several, one per line) on stdout, byte for byte as encoded.
    static func standardOutput(json text: String) {
        write(text, toStandardError: false)
    }

    /// A JSON error on stderr, byte for byte as encoded.
    static func standardError(json text: String) {
        write(text, toStandardError: true)
    }

    /// Each line of `text` made terminal-safe; the line breaks between them stay.
    private static func safe(_ text: String, keepingStyle: Bool) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalSafeText.line(String($0), keepingStyle: keepingStyle) }
            .joined(separator: "\n")
    }

    private static func write(_ text: String, toStandardError: Bool) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        if let capture {
            capture.append(line, toStandardError: toStandardError)
            return
        }
        let handle = toStandardError ? FileHandle.standardError : FileHandle.standardOutput
        // A closed pipe (`rider … | head -1`) is not worth an error message.
        try? handle.write(contentsOf: Data(line.utf8))
    }
}

/// Text from outside — a server's names, emails, descriptions and problem details, file names,
/// config values — made safe to write to a terminal, where a control character is an order:
/// ESC starts sequences that retitle the window, move the cursor or (OSC 52) write the
/// clipboard, CR and LF forge lines, and a bidi override makes text read in a different order
/// from the bytes. Combining marks stacked on one character ("Zalgo" text) draw over the lines
/// above and below: past ``combiningMarksPerCharacter`` on one base character they are written
/// out too, so a user code or a name cannot hide what is printed around it.
///
/// Such characters are written out visibly (`\e`, `\a`, `\r`, `\u{9B}`, `\u{202E}`), never
/// dropped, so what a person reads still shows that something odd was sent. Backslashes are left
/// as they are: escaping is then idempotent (escaped text has nothing left to escape), so the
/// renderers and ``Console`` may both apply it. `--json` never passes through here: it carries
/// the exact strings.
///
/// Two strengths:
/// - ``escape(_:)`` for a *field* (one value inside a line): every control character, LF and tab
///   included, so a field can neither break its line nor shift the columns after it.
/// - ``line(_:keepingStyle:)`` for what ``Console`` writes: the same, except the escapes
///   ``TextStyle`` itself adds, when styling is on.
enum TerminalSafeText {
    /// How many combining marks one base character keeps; the rest are written out. Two cover
    /// the scripts that stack marks in ordinary text (Vietnamese, decomposed: a letter with a
    /// tone mark and a vowel mark; a keycap emoji), not a tower that reaches into other lines.
    static let combiningMarksPerCharacter = 2

    /// `text` with every C0 and C1 control character, DEL and bidi override or isolate written
    /// out visibly, and the combining marks of one character past ``combiningMarksPerCharacter``.
    static func escape(_ text: String) -> String {
        guard hasAnythingToEscape(text.unicodeScalars) else { return text }
        var escaped = String.UnicodeScalarView()
        var marks = 0
        for scalar in text.unicodeScalars {
            append(scalar, marks: &marks, to: &escaped)
        }
        return String(escaped)
    }

    /// One line for ``Console``: ``escape(_:)``, except that with `keepingStyle` the bold, dim and
    /// reset sequences of ``TextStyle`` stay escapes. Only lines rendered with that style ask
    /// for it (tables and their headers), and their renderers escaped each field first, so the
    /// sequences kept are rider's own; every other line keeps no escape at all.
    static func line(_ line: String, keepingStyle: Bool) -> String {
        guard hasAnythingToEscape(line.unicodeScalars) else { return line }
        let scalars = Array(line.unicodeScalars)
        var escaped = String.UnicodeScalarView()
        var index = 0
        var marks = 0
        while index < scalars.count {
            if keepingStyle, let length = styleEscapeLength(in: scalars, at: index) {
                escaped.append(contentsOf: scalars[index..<index + length])
                // A style escape draws nothing: marks after it still stack on the same character.
                index += length
                continue
            }
            append(scalars[index], marks: &marks, to: &escaped)
            index += 1
        }
        return String(escaped)
    }

    /// Whether `scalar` is a control character (C0, DEL, C1) or a bidi embedding, override or
    /// isolate (U+202A–U+202E, U+2066–U+2069), which reorder everything after them on the line.
    static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Whether `scalar` is a combining mark that draws on the character before it (nonspacing
    /// or enclosing); spacing marks take room of their own and cannot reach another line.
    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Whether anything in `scalars` must be written out: a character ``needsEscaping(_:)``
    /// names, or a run of combining marks longer than ``combiningMarksPerCharacter``.
    private static func hasAnythingToEscape(_ scalars: String.UnicodeScalarView) -> Bool {
        var marks = 0
        for scalar in scalars {
            if needsEscaping(scalar) { return true }
            marks = isCombiningMark(scalar) ? marks + 1 : 0
            if marks > combiningMarksPerCharacter { return true }
        }
        return false
    }

    /// Appends `scalar`, or its visible escape; `marks` counts the combining marks on the
    /// current base character so far.
    private static func append(_ scalar: Unicode.Scalar, marks: inout Int,
                               to escaped: inout String.UnicodeScalarView) {
        marks = isCombiningMark(scalar) ? marks + 1 : 0
        guard needsEscaping(scalar) || marks > combiningMarksPerCharacter else {
            escaped.append(scalar)
            return
        }
        escaped.append(contentsOf: visible(scalar).unicodeScalars)
    }

    /// The short escapes people know from C and shells where there is one, else `\u{…}`.
    private static func visible(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\u{1B}": return "\\e"
        case "\u{07}": return "\\a"
        case "\u{08}": return "\\b"
        case "\t": return "\\t"
        case "\n": return "\\n"
        case "\u{0B}": return "\\v"
        case "\u{0C}": return "\\f"
        case "\r": return "\\r"
        case "\0": return "\\0"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\u{" + String(repeating: "0", count: max(0, 2 - hex.count)) + hex + "}"
        }
    }

    /// The length of the ``TextStyle`` escape starting at `index`, if one does.
    private static func styleEscapeLength(in scalars: [Unicode.Scalar], at index: Int) -> Int? {
        for sequence in TextStyle.escapes {
            let candidate = Array(sequence.unicodeScalars)
            if scalars[index...].starts(with: candidate) { return candidate.count }
        }
        return nil
    }
}

extension String {
    /// This text as a terminal may show it: see ``TerminalSafeText/escape(_:)``.
    var terminalSafe: String { TerminalSafeText.escape(self) }
}

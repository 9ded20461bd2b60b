/// ANSI bold and dim, or nothing: the escapes wrap whole cells so they never count towards widths.
struct TextStyle: Sendable, Equatable {
    /// Whether escapes are written at all.
    let isEnabled: Bool

    /// No escapes: what scripts and dumb terminals get.
    static let plain = TextStyle(isEnabled: false)
    /// Bold and dim escapes.
    static let ansi = TextStyle(isEnabled: true)

    /// `text` in bold.
    func bold(_ text: String) -> String { wrap(text, Self.boldOn) }

    /// `text` dimmed, for what matters less than its neighbours.
    func dim(_ text: String) -> String { wrap(text, Self.dimOn) }

    /// Every escape sequence this type writes, and nothing else: ``TerminalSafeText`` lets
    /// exactly these through when styling is on.
    static let escapes = [boldOn, dimOn, reset]

    private static let boldOn = "\u{1B}[1m"
    private static let dimOn = "\u{1B}[2m"
    private static let reset = "\u{1B}[0m"

    private func wrap(_ text: String, _ on: String) -> String {
        isEnabled && !text.isEmpty ? on + text + Self.reset : text
    }
}

/// ANSI bold and dim, or nothing: the escapes wrap whole cells so they never count towards widths.
struct TextStyle: Sendable, Equatable {
    /// Whether escapes are written at all.
    let isEnabled: Bool

    /// No escapes: what scripts and dumb terminals get.
    static let plain = TextStyle(isEnabled: false)
    /// Bold and dim escapes.
    static let ansi = TextStyle(isEnabled: true)

    /// `text` in bold.
    func bold(_ text: String) -> String { wrap(text, "1") }

    /// `text` dimmed, for what matters less than its neighbours.
    func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        isEnabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// The rule for text that other people's terminals and screens show: names, emails,
/// descriptions, sports and place names hold no control characters and no bidirectional
/// overrides.
///
/// A C0 or C1 control (ESC, BEL, CR, the 8-bit CSI…) lets whoever wrote the text move the
/// reader's cursor, retitle their window or forge lines; an override or isolate (U+202A–U+202E,
/// U+2066–U+2069) makes text display in an order other than the one it is stored in. Refusing
/// them at the server keeps them out of every client, including ones that print raw.
enum DisplaySafeText {
    /// What is wrong with `text`, as a field message naming the first refused character, or
    /// `nil` when it may be stored.
    static func problem(in text: String) -> String? {
        guard let refused = text.unicodeScalars.first(where: isRefused) else { return nil }
        return "must not contain control characters or bidirectional overrides (found \(codePoint(refused)))"
    }

    /// C0 (U+0000–U+001F, newline and tab included), DEL and C1 (U+007F–U+009F), and the bidi
    /// embeddings, overrides and isolates.
    static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

/// The contract's "looks like an email address": deliberately loose, because only a mail
/// that arrives proves an address; this only catches typos such as a missing `@` or domain.
enum EmailRule {
    static func looksLikeAddress(_ text: String) -> Bool {
        guard text.count <= 254, !text.contains(where: { $0.isWhitespace || $0.isNewline }) else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }
}

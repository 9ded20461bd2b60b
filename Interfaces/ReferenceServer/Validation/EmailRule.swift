/// The contract's "looks like an email address": deliberately loose, because only a mail
/// that arrives proves an address; this only catches typos such as a missing `@` or domain.
enum EmailRule {
    static func looksLikeAddress(_ text: String) -> Bool {
        // Unicode scalars, not Characters: a combining mark after "@" or "." must not hide the
        // separator, and lengths are counted the way JSON Schema counts them (docs/openapi.yaml).
        let scalars = Array(text.unicodeScalars)
        guard scalars.count <= 254, !scalars.contains(where: \.properties.isWhitespace) else { return false }
        let parts = scalars.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }
}

/// The short code a person types on the verification page (RFC 8628 §6.1): eight letters from
/// ``alphabet``, shown as `XXXX-XXXX`.
///
/// Consonants only, without vowels (no words) and without letters that read alike; 20⁸ ≈ 2.6 × 10¹⁰
/// codes, of which only the few outstanding ones are valid. Compared without case and
/// without the dash, spaces or tabs a person may type.
enum UserCode {
    static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
    static let length = 8

    /// A fresh code in its canonical form (eight letters, no dash).
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// The canonical form of what a person typed, or `nil` when it cannot be a user code.
    static func canonical(_ typed: String) -> String? {
        guard typed.utf8.count <= 64 else { return nil }
        let letters = typed.uppercased().filter { $0 != "-" && $0 != " " && $0 != "\t" }
        guard letters.count == length, letters.allSatisfy(alphabet.contains) else { return nil }
        return letters
    }

    /// `BCDF-GHJK`, the form shown and sent to clients.
    static func display(_ canonical: String) -> String {
        String(canonical.prefix(length / 2)) + "-" + String(canonical.dropFirst(length / 2))
    }
}

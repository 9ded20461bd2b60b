/// How the server spells the opaque tokens it issues.
package enum TokenAlphabet: Sendable, Hashable {
    /// 32 random bytes as base64url without padding (43 characters of `A–Z a–z 0–9 - _`).
    case base64URL
    /// 32 random bytes as standard base64 with padding, chosen so that every token holds `+`, `/`
    /// and `=`: proves that a client percent-encodes tokens in form bodies instead of pasting them.
    case formHostile
}

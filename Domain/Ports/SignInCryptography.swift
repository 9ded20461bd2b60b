import Foundation

/// The cryptography a browser sign-in needs (RFC 7636 PKCE, `state`, OpenID `nonce`), from a
/// well-kept library rather than hand-written code: the inner layers import nothing but
/// Foundation, which has neither a hash function nor, on every platform, a named CSPRNG.
package protocol SignInCryptography: Sendable {
    /// SHA-256 of `data`.
    func sha256(_ data: Data) -> Data

    /// `count` bytes from a cryptographically secure random generator.
    func randomBytes(count: Int) -> Data
}

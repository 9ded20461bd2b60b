import Foundation

/// Keeps the session of one account on one server between runs.
///
/// Implementations decide where (a keyring, an encrypted file, memory) but must never
/// write a token anywhere readable by other users, nor put one in an error message.
public protocol TokenVault: Sendable {
    /// A human-readable name of where sessions are kept (for `rider session show`).
    var location: String { get }

    /// - Returns: the stored session, or `nil` when none is stored.
    /// - Throws: ``RiderError/storage(_:underlying:)`` when the store exists but cannot be read; the
    ///   store is left untouched.
    func loadSession() async throws -> Session?

    /// Replaces the stored session.
    /// - Throws: ``RiderError/storage(_:underlying:)``; the previous session is then still in place.
    func saveSession(_ session: Session) async throws

    /// Removes the stored session, if any.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func removeSession() async throws
}

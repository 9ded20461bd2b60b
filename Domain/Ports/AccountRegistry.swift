import Foundation

/// Lists the accounts stored for one server and remembers which one is active: what `rider session
/// list|switch` show and change. It holds no secret (ids, emails, names, dates); each account's
/// session stays in its ``TokenVault``.
///
/// Shared by every process of the user: a change made by one is seen by the next read of another.
package protocol AccountRegistry: Sendable {
    /// The server whose accounts these are (its API origin).
    var server: String { get }

    /// Every stored account of the server, the active one first, then the most recently signed in.
    /// - Throws: ``RiderError/storage(_:underlying:)`` when the registry cannot be read.
    func accounts() async throws -> [Account]

    /// Records a signed-in account (adds it, or updates its email and name), making it the
    /// active one when `activate` is set.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func record(_ account: Account, activate: Bool) async throws

    /// Makes `account` the active one.
    /// - Throws: `RiderError.unknownAccount(_:server:stored:)` when it is not stored,
    ///   ``RiderError/storage(_:underlying:)``.
    func activate(_ account: UserID) async throws

    /// Forgets `account`; when it was the active one, the most recently signed-in of the others
    /// becomes active.
    /// - Returns: the account active afterwards, if any.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    @discardableResult
    func remove(_ account: UserID) async throws -> Account?

    /// Every change this process makes to the server's accounts, starting with how they are now.
    func changes() async -> AsyncStream<AccountsChange>
}

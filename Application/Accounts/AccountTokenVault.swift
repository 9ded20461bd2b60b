import Foundation
import RiderDomain

/// The vault of a `RiderKit` among several accounts on one server: it speaks for one account,
/// keeps that account's session in the account's own `TokenVault`, and keeps the server's
/// `AccountRegistry` (which accounts are stored, which is active) in step with every sign-in
/// and sign-out.
///
/// Which account is decided on first use and then holds for the life of the instance, so a
/// `rider session switch` in another process never swaps tokens under a running program:
/// the account asked for (an email or an id), else the server's active account. Unbound, a
/// sign-in to another account adds it and makes it active; bound to an account, a sign-in that
/// comes back as another account is refused (`RiderError.otherAccount(signedIn:bound:)`) and
/// its tokens are revoked by the session engine, as for any session that cannot be kept.
///
/// A session stored by a RiderKit from before accounts (one per server) moves over on first use:
/// read through ``LegacySession``, stored as its account's, recorded as the active account,
/// then retired — without loss: a failure at any step leaves it where it was.
package actor AccountTokenVault: TokenVault {
    /// A session kept the way RiderKit kept one before accounts: how to read it, and how to
    /// retire it once its account holds it.
    package struct LegacySession: Sendable {
        package let load: @Sendable () async throws -> Session?
        package let retire: @Sendable (UserID) async throws -> Void

        /// - Parameters:
        ///   - load: reads the old session, if any.
        ///   - retire: removes what is left of it once `account`'s vault holds it (nothing, where
        ///     the account's vault is the same entry).
        package init(load: @escaping @Sendable () async throws -> Session?,
                    retire: @escaping @Sendable (_ account: UserID) async throws -> Void) {
            self.load = load
            self.retire = retire
        }
    }

    /// The server's accounts.
    package nonisolated let registry: any AccountRegistry
    /// The account asked for (an email or an id), or `nil` to follow the server's active account.
    package nonisolated let requestedAccount: String?
    package nonisolated let location: String
    private let vaultOfAccount: @Sendable (UserID) async throws -> any TokenVault
    private let legacy: LegacySession?
    private var vaults: [UserID: any TokenVault] = [:]
    /// The account decided on, readable without entering the actor (the caches ask on every call).
    private nonisolated let pin = Pin()
    /// Told when the account asked for was found by an email its provider has not verified.
    package nonisolated let notice: (@Sendable (String) -> Void)?

    /// - Parameters:
    ///   - registry: the server's accounts.
    ///   - account: the account to speak for, by email or id; `nil` follows the active account.
    ///   - location: where sessions are kept, in words (`rider session show`).
    ///   - legacy: the session a RiderKit from before accounts stored, moved over on first use.
    ///   - vault: the vault of one account.
    ///   - notice: told when `account` is taken by an email nobody verified (the only account
    ///     showing it), so a person can learn to name it by its id.
    package init(registry: any AccountRegistry, account: String? = nil, location: String, legacy: LegacySession? = nil,
                vault: @escaping @Sendable (_ account: UserID) async throws -> any TokenVault,
                notice: (@Sendable (String) -> Void)? = nil) {
        self.notice = notice
        self.registry = registry
        requestedAccount = account.flatMap { $0.isEmpty ? nil : $0 }
        self.location = location
        self.legacy = legacy
        vaultOfAccount = vault
    }

    /// The account decided on so far, without deciding: `nil` before first use, or while nobody is
    /// signed in.
    package nonisolated var pinnedAccount: UserID? { pin.value }

    /// The account this vault speaks for: decided on first call (moving a session from before
    /// accounts over first), `nil` while no account is signed in.
    /// - Throws: `RiderError.unknownAccount(_:server:stored:)` when the account asked for is not
    ///   stored; `RiderError.storage(_:underlying:)` when the registry cannot be read.
    package func account() async throws -> UserID? {
        if let pinned = pin.value { return pinned }
        var accounts = try await registry.accounts()
        if accounts.isEmpty, let legacy, try await migrate(legacy) {
            accounts = try await registry.accounts()
        }
        if let requestedAccount {
            guard let match = try resolve(requestedAccount, among: accounts) else {
                throw RiderError.unknownAccount(requestedAccount, server: registry.server,
                                                stored: accounts.map(\.displayName))
            }
            pin.value = match.id
            return match.id
        }
        guard let active = accounts.first(where: \.isActive) else { return nil }
        pin.value = active.id
        return active.id
    }

    /// The vault holding `account`'s session (made once per account).
    /// - Throws: what making it throws (an issuer's metadata that cannot be read).
    package func vault(for account: UserID) async throws -> any TokenVault {
        if let made = vaults[account] { return made }
        let made = try await vaultOfAccount(account)
        vaults[account] = made
        return made
    }

    package func loadSession() async throws -> Session? {
        guard let account = try await account() else { return nil }
        return try await vault(for: account).loadSession()
    }

    package func saveSession(_ session: Session) async throws {
        let current: UserID?
        do {
            current = try await account()
        } catch let error as RiderError where error.code == .unknownAccount {
            current = nil  // signing in to the account asked for, before it was stored
        }
        if let requestedAccount {
            // Bound to one account: the sign-in must come back as that account.
            guard try current.map({ $0 == session.userID })
                    ?? (resolve(requestedAccount, among: [Self.account(of: session, server: registry.server)]) != nil)
            else {
                throw RiderError.otherAccount(signedIn: Self.displayName(of: session), bound: requestedAccount)
            }
        }
        let isSignIn = current != session.userID
        let wasListed = isSignIn ? ((try? await registry.accounts())?.contains { $0.id == session.userID } ?? true) : true
        let vault = try await vault(for: session.userID)
        try await vault.saveSession(session)
        pin.value = session.userID
        var account = Self.account(of: session, server: registry.server)
        account.signedInAt = isSignIn ? session.issuedAt : nil
        guard isSignIn else {
            // A renewed session is in its vault: the list only learns a newer email or name, and a
            // list that cannot be written must not fail the renewal (the old tokens are retired).
            try? await registry.record(account, activate: false)
            return
        }
        do {
            try await registry.record(account, activate: true)
        } catch {
            // A new account no list names would never be used again: take its session back out.
            if !wasListed { try? await vault.removeSession() }
            pin.value = current
            throw error
        }
    }

    /// Removes this account's session and forgets the account; the instance stays bound to it,
    /// signed out.
    package func removeSession() async throws {
        guard let account = try await account() else { return }
        try await remove(account)
    }

    /// Removes `account`'s session and forgets it; when it was the active account, the most
    /// recently signed-in of the others becomes active.
    /// - Returns: the account active afterwards, if any.
    /// - Throws: `RiderError.storage(_:underlying:)`; the account is then still listed.
    @discardableResult
    package func remove(_ account: UserID) async throws -> Account? {
        try await vault(for: account).removeSession()
        return try await registry.remove(account)
    }

    /// Moves a session stored before accounts over; `true` when there was one.
    private func migrate(_ legacy: LegacySession) async throws -> Bool {
        guard let session = try await legacy.load() else { return false }
        let vault = try await vault(for: session.userID)
        // For the keyring the account's item is the old item itself: nothing to copy.
        if try await vault.loadSession() == nil { try await vault.saveSession(session) }
        try await registry.record(Self.account(of: session, server: registry.server), activate: true)
        try await legacy.retire(session.userID)
        return true
    }

    /// The account `name` names among `accounts` (``Account/named(_:among:server:)``), telling
    /// ``notice`` when only an unverified email matched.
    package nonisolated func resolve(_ name: String, among accounts: [Account]) throws -> Account? {
        guard let (account, match) = try Account.named(name, among: accounts, server: registry.server) else { return nil }
        if match == .unverifiedEmail {
            notice?("the account '\(name)' was taken to be \(account.id.rawValue) by its email, which the provider has "
                + "not verified (no other account here shows it); name the account by its id to be sure")
        }
        return account
    }

    /// The list's entry for `session`'s account, signed in now.
    private static func account(of session: Session, server: String) -> Account {
        var account = Account(id: session.userID, server: server, email: session.identity?.email,
                              name: session.identity?.name, signedInAt: session.issuedAt)
        if let identity = session.identity, identity.email != nil { account.emailVerified = identity.isEmailVerified }
        return account
    }

    private static func displayName(of session: Session) -> String {
        session.identity?.email ?? session.userID.rawValue
    }

    /// One value behind a lock: read on every cache call, so without an actor hop.
    private final class Pin: @unchecked Sendable {
        private let lock = NSLock()
        private var account: UserID?
        var value: UserID? {
            get { lock.withLock { account } }
            set { lock.withLock { account = newValue } }
        }
    }
}

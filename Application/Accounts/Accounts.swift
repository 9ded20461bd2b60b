import Foundation
import RiderDomain

/// The accounts stored for a `RiderKit`'s server: list them, see and change the active one,
/// forget one, follow their changes (`rider session list|switch`, `rider logout --account`).
///
/// A `RiderKit` speaks for one account (``current()``); to use two at once, make one `RiderKit`
/// per account (`RiderKit.Configuration.account`).
public struct Accounts: Sendable {
    let vault: AccountTokenVault
    let sessions: SessionEngine
    let caches: AccountScoped<any UserCache>?
    let catalogues: AccountScoped<any SportCatalogueCache>?

    package init(vault: AccountTokenVault, sessions: SessionEngine, caches: AccountScoped<any UserCache>?,
                 catalogues: AccountScoped<any SportCatalogueCache>?) {
        self.vault = vault
        self.sessions = sessions
        self.caches = caches
        self.catalogues = catalogues
    }

    /// The server (its API origin).
    public var server: String { vault.registry.server }

    /// Every account stored for the server, the active one first, then the most recently signed in.
    /// - Throws: `RiderError.storage(_:underlying:)` when the list cannot be read.
    public func list() async throws -> [Account] {
        _ = try? await vault.account()  // moves a session from before accounts over first
        return try await vault.registry.accounts()
    }

    /// The server's active account: the one a `RiderKit` without an account speaks for.
    /// - Throws: `RiderError.storage(_:underlying:)`.
    public func active() async throws -> Account? {
        try await list().first(where: \.isActive)
    }

    /// The account this `RiderKit` speaks for, `nil` while none is signed in.
    /// - Throws: `RiderError.unknownAccount(_:server:stored:)` when it was made for an account
    ///   that is not stored; `RiderError.storage(_:underlying:)`.
    public func current() async throws -> Account? {
        guard let id = try await vault.account() else { return nil }
        return try await vault.registry.accounts().first { $0.id == id }
    }

    /// Finds a stored account by id, else by an email (ignoring case) that is verified, or that
    /// no other stored account shows.
    /// - Throws: `RiderError.unknownAccount(_:server:stored:)` naming the stored ones; the same
    ///   code when `name` is the unverified email of several accounts.
    public func named(_ name: String) async throws -> Account {
        let accounts = try await list()
        guard let match = try vault.resolve(name, among: accounts) else {
            throw RiderError.unknownAccount(name, server: server, stored: accounts.map(\.displayName))
        }
        return match
    }

    /// Makes `account` the server's active account, for every `RiderKit` made afterwards without an
    /// account (running ones keep theirs).
    /// - Throws: `RiderError.unknownAccount(_:server:stored:)`, `RiderError.storage(_:underlying:)`.
    public func activate(_ account: UserID) async throws {
        try await vault.registry.activate(account)
    }

    /// Forgets `account` on this machine: its session, its cached users and sport catalogue, and
    /// its place in the list. Tokens are not revoked on the server: for that, `logout()` a
    /// `RiderKit` bound to the account.
    /// - Returns: the account active afterwards, if any.
    /// - Throws: `RiderError.storage(_:underlying:)`; the account is then still listed.
    @discardableResult
    public func remove(_ account: UserID) async throws -> Account? {
        if try await vault.account() == account {
            try await sessions.end()  // forgets it in memory too, and removes it from the vault
        } else {
            try await vault.remove(account)
        }
        try await caches?.adapter(for: account).removeAll()
        try await catalogues?.adapter(for: account).remove()
        return try await vault.registry.accounts().first(where: \.isActive)
    }

    /// Takes `account` off the list without touching its vault entry: for `rider vault reset`,
    /// which removes entries that cannot be read itself.
    package func unlist(_ account: UserID) async throws {
        try await vault.registry.remove(account)
    }

    /// The server's accounts now, then after every change this process makes (a sign-in, a switch,
    /// a removal), whichever `RiderKit` made it.
    public func changes() async -> AsyncStream<AccountsChange> {
        await vault.registry.changes()
    }
}

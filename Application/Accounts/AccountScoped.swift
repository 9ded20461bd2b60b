import Foundation
import RiderDomain

/// One adapter per account, for what must never cross accounts (cached users, the sport
/// catalogue, the refresh lock): the adapter of the account an ``AccountTokenVault`` speaks for,
/// made on first use, and `nobody`'s while no account is signed in.
package final class AccountScoped<Adapter: Sendable>: @unchecked Sendable {
    package let accounts: AccountTokenVault
    private let make: @Sendable (UserID) -> Adapter
    private let nobody: Adapter
    private let lock = NSLock()
    private var made: [UserID: Adapter] = [:]

    /// - Parameters:
    ///   - accounts: decides the account.
    ///   - nobody: used while no account is signed in (or the account cannot be decided).
    ///   - make: the adapter of one account.
    package init(accounts: AccountTokenVault, nobody: Adapter, make: @escaping @Sendable (UserID) -> Adapter) {
        self.accounts = accounts
        self.nobody = nobody
        self.make = make
    }

    /// The adapter of the account the vault speaks for now.
    /// - Throws: what deciding the account throws: an account asked for that is not stored is
    ///   never served `nobody`'s adapter (it would answer as if it were signed out).
    package func current() async throws -> Adapter {
        if let pinned = accounts.pinnedAccount { return adapter(for: pinned) }
        guard let account = try await accounts.account() else { return nobody }
        return adapter(for: account)
    }

    /// The same for callers that cannot throw: `nobody`'s adapter when the account cannot be decided.
    package func currentOrNobody() async -> Adapter {
        (try? await current()) ?? nobody
    }

    /// Every adapter made so far, `nobody`'s first: what closing has to reach.
    package func everyAdapter() -> [Adapter] {
        [nobody] + lock.withLock { Array(made.values) }
    }

    /// `account`'s adapter.
    package func adapter(for account: UserID) -> Adapter {
        lock.withLock {
            if let existing = made[account] { return existing }
            let adapter = make(account)
            made[account] = adapter
            return adapter
        }
    }
}

/// The user cache of the account the vault speaks for: one account's cached users and search
/// results are never shown to another.
package struct AccountScopedUserCache: UserCache {
    package let caches: AccountScoped<any UserCache>

    package init(_ caches: AccountScoped<any UserCache>) { self.caches = caches }

    package func user(id: UserID) async throws -> Cached<User>? { try await caches.current().user(id: id) }
    package func store(_ users: [User], at date: Date) async throws { try await caches.current().store(users, at: date) }
    package func store(_ user: User, entityTag: EntityTag?, at date: Date) async throws {
        try await caches.current().store(user, entityTag: entityTag, at: date)
    }
    package func markRevalidated(id: UserID, at date: Date) async throws {
        try await caches.current().markRevalidated(id: id, at: date)
    }
    package func remove(id: UserID) async throws { try await caches.current().remove(id: id) }
    package func search(_ query: String, page: PageRequest) async throws -> UserPage {
        try await caches.current().search(query, page: page)
    }
    package func statistics() async throws -> UserCacheStatistics { try await caches.current().statistics() }
    package func removeAll() async throws { try await caches.current().removeAll() }
    package func flush() async throws {
        for cache in caches.everyAdapter() { try await cache.flush() }
    }
    /// Closes every account's cache this process opened, not only the current one's.
    package func close() async {
        for cache in caches.everyAdapter() { await cache.close() }
    }
}

/// The sport catalogue kept for the account the vault speaks for.
package struct AccountScopedSportCatalogue: SportCatalogueCache {
    package let catalogues: AccountScoped<any SportCatalogueCache>

    package init(_ catalogues: AccountScoped<any SportCatalogueCache>) { self.catalogues = catalogues }

    package func load() async -> StoredSportCatalogue? { await catalogues.currentOrNobody().load() }
    package func save(_ catalogue: StoredSportCatalogue) async throws { try await catalogues.current().save(catalogue) }
    package func remove() async throws { try await catalogues.current().remove() }
}

/// The refresh lock of the account the vault speaks for: two accounts refresh in parallel, two
/// processes on one account still take turns.
package struct AccountScopedRefreshLock: RefreshLock {
    package let locks: AccountScoped<any RefreshLock>

    package init(_ locks: AccountScoped<any RefreshLock>) { self.locks = locks }

    package func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await locks.current().withLock(body)
    }
}

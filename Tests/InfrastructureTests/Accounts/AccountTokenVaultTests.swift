import Foundation
import RiderApplication
import RiderInfrastructure
import RiderKit
import Testing

/// The rules of `AccountTokenVault` with in-memory parts: which account it speaks for, when, and
/// what a failure leaves behind.
@Suite("AccountTokenVault: one account's session among several")
struct AccountTokenVaultTests {
    static let server = "https://api.example.com"

    static func session(_ id: String, email: String) -> Session {
        Session(accessToken: "access-\(id)", refreshToken: "refresh-\(id)", expiresAt: nil, userID: UserID(id),
                role: nil, issuedAt: Date(timeIntervalSince1970: 1_800_000_000),
                identity: AccountIdentity(email: email, name: nil, source: .credentials))
    }

    /// Vaults of one "machine": the registry and each account's vault, shared by every
    /// `AccountTokenVault` made from it (as processes share the files).
    final class Machine: Sendable {
        let registry: any AccountRegistry
        let vaults = Vaults()
        init(registry: any AccountRegistry = InMemoryAccountRegistry(server: AccountTokenVaultTests.server)) {
            self.registry = registry
        }
        func vault(account: String? = nil) -> AccountTokenVault {
            AccountTokenVault(registry: registry, account: account, location: "memory") { [vaults] in
                await vaults.vault(for: $0)
            }
        }
        actor Vaults {
            var made: [UserID: InMemoryTokenVault] = [:]
            func vault(for account: UserID) -> InMemoryTokenVault {
                if let vault = made[account] { return vault }
                let vault = InMemoryTokenVault()
                made[account] = vault
                return vault
            }
        }
    }

    @Test("the account is decided on first use and holds when the active account changes elsewhere")
    func pinnedOnFirstUse() async throws {
        let machine = Machine()
        try await machine.vault().saveSession(Self.session("a", email: "a@example.com"))
        let running = machine.vault()
        #expect(try await running.loadSession()?.userID == "a")
        try await machine.vault().saveSession(Self.session("b", email: "b@example.com"))  // b is active now
        #expect(try await machine.registry.accounts().first?.id == "b")
        #expect(try await running.loadSession()?.userID == "a", "a running program keeps its account")
        #expect(try await machine.vault().loadSession()?.userID == "b", "a new one follows the active account")
    }

    @Test("bound by email, the account's first sign-in is taken; another account's is refused and not stored")
    func boundByEmail() async throws {
        let machine = Machine()
        let bound = machine.vault(account: "B@example.com")
        await #expect { try await bound.saveSession(Self.session("a", email: "a@example.com")) } throws: {
            ($0 as? RiderError)?.code == .otherAccount
        }
        #expect(try await machine.registry.accounts().isEmpty)
        try await bound.saveSession(Self.session("b", email: "b@example.com"))
        #expect(try await bound.loadSession()?.userID == "b")
        #expect(try await machine.vault(account: "b").loadSession()?.userID == "b")
    }

    @Test("a new account the list cannot record is taken back out; the account before it stays")
    func unrecordedSignInIsUndone() async throws {
        let machine = Machine(registry: RefusingRegistry(server: Self.server))
        let vault = machine.vault()
        await #expect { try await vault.saveSession(Self.session("a", email: "a@example.com")) } throws: {
            ($0 as? RiderError)?.code == .storage
        }
        #expect(try await machine.vaults.vault(for: "a").loadSession() == nil)
        #expect(vault.pinnedAccount == nil)
    }

    @Test("removing the active account makes the most recently signed-in other one active")
    func removalHandsOver() async throws {
        let machine = Machine()
        for (id, second) in [("a", 0.0), ("b", 10.0), ("c", 5.0)] {
            var session = Self.session(id, email: "\(id)@example.com")
            session.issuedAt = session.issuedAt.addingTimeInterval(second)
            try await machine.vault().saveSession(session)
        }
        try await machine.vault(account: "b@example.com").activate()
        let next = try await machine.vault().remove("b")
        #expect(next?.id == "c")
        #expect(try await machine.registry.accounts().map(\.id) == ["c", "a"])
    }

    /// A registry whose file cannot be written.
    actor RefusingRegistry: AccountRegistry {
        nonisolated let server: String
        init(server: String) { self.server = server }
        func accounts() async throws -> [Account] { [] }
        func record(_ account: Account, activate: Bool) async throws { throw RiderError.storage("refused") }
        func activate(_ account: UserID) async throws { throw RiderError.storage("refused") }
        func remove(_ account: UserID) async throws -> Account? { nil }
        func changes() async -> AsyncStream<AccountsChange> { AsyncStream { $0.finish() } }
    }
}

extension AccountTokenVault {
    /// Makes the account this vault speaks for the active one (as `rider session switch`).
    fileprivate func activate() async throws {
        guard let account = try await account() else { return }
        try await registry.activate(account)
    }
}

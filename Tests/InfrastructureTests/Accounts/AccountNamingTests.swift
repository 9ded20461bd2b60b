import Foundation
import RiderApplication
import RiderKit
import Synchronization
import Testing

/// `--account NAME` (and `rider session switch NAME`): the subject names an account; an email
/// only when verified, or when no other stored account shows it — and then the notice says so.
@Suite("Account naming: the subject first, an unverified email only when it is the only one")
struct AccountNamingTests {
    static let server = AccountTokenVaultTests.server

    /// A session signed in with an OpenID provider that said (or did not say) the email is verified.
    static func session(_ id: String, email: String, verified: Bool?) -> Session {
        var session = AccountTokenVaultTests.session(id, email: email)
        var identity = AccountIdentity(email: email, name: nil, source: .idToken)
        identity.emailVerified = verified
        session.identity = identity
        return session
    }

    /// The machine's vaults, and every notice they gave.
    final class Rig: Sendable {
        let machine = AccountTokenVaultTests.Machine()
        let notices = Mutex<[String]>([])

        func vault(account: String? = nil) -> AccountTokenVault {
            AccountTokenVault(registry: machine.registry, account: account, location: "memory",
                              vault: { [vaults = machine.vaults] in await vaults.vault(for: $0) },
                              notice: { [self] text in notices.withLock { $0.append(text) } })
        }

        func store(_ sessions: Session...) async throws {
            for session in sessions { try await vault().saveSession(session) }
        }
    }

    @Test("a name that is one account's id picks it, even where another account shows it as its email")
    func subjectFirst() async throws {
        let rig = Rig()
        try await rig.store(Self.session("ana@example.com", email: "x@example.com", verified: true),
                            Self.session("mallory", email: "ana@example.com", verified: true))
        #expect(try await rig.vault(account: "ana@example.com").account() == "ana@example.com")
        #expect(rig.notices.withLock { $0 }.isEmpty)
    }

    @Test("the verified email wins over another account showing the same address unverified; no notice")
    func verifiedEmailWins() async throws {
        let rig = Rig()
        try await rig.store(Self.session("sub-ana", email: "ana@example.com", verified: true),
                            Self.session("sub-mallory", email: "ANA@example.com", verified: false))
        #expect(try await rig.vault(account: "ana@example.com").account() == "sub-ana")
        #expect(rig.notices.withLock { $0 }.isEmpty)
    }

    @Test("an unverified email the only account shows is taken, and the notice says so and names its id")
    func uniqueUnverifiedEmailSaid() async throws {
        let rig = Rig()
        try await rig.store(Self.session("sub-ana", email: "ana@example.com", verified: nil),
                            Self.session("sub-bo", email: "bo@example.com", verified: true))
        #expect(try await rig.vault(account: "ana@example.com").account() == "sub-ana")
        let notices = rig.notices.withLock { $0 }
        #expect(notices.count == 1)
        #expect(notices.first?.contains("taken to be sub-ana by its email, which the provider has not verified") == true,
                "\(notices)")
    }

    @Test("an unverified email several accounts show names none of them: refused, naming their ids")
    func ambiguousUnverifiedEmailRefused() async throws {
        let rig = Rig()
        try await rig.store(Self.session("sub-ana", email: "ana@example.com", verified: false),
                            Self.session("sub-mallory", email: "ana@example.com", verified: false))
        let vault = rig.vault(account: "ana@example.com")
        let thrown = await #expect(throws: RiderError.self) { try await vault.account() }
        #expect(thrown?.code == .unknownAccount)
        #expect(thrown?.message.contains("several accounts") == true && thrown?.message.contains("sub-mallory") == true,
                "\(thrown?.message ?? "")")
    }

    @Test("an email signed in with a password is verified: the server took it with the account's password")
    func passwordEmailVerified() async throws {
        let rig = Rig()
        try await rig.store(AccountTokenVaultTests.session("u_1", email: "ana@example.com"),
                            Self.session("sub-mallory", email: "ana@example.com", verified: false))
        #expect(try await rig.machine.registry.accounts().first { $0.id == "u_1" }?.emailVerified == true)
        #expect(try await rig.vault(account: "ana@example.com").account() == "u_1")
        #expect(rig.notices.withLock { $0 }.isEmpty)
    }

    @Test("the rule itself, over plain accounts", arguments: [
        ("u_1", "u_1"), ("a@example.com", "u_2"), ("B@EXAMPLE.COM", "u_3"), ("c@example.com", "none"),
    ])
    func rule(name: String, expected: String) throws {
        func account(_ id: String, _ email: String, _ verified: Bool?) -> Account {
            var account = Account(id: UserID(id), server: Self.server, email: email)
            account.emailVerified = verified
            return account
        }
        let accounts = [account("u_1", "a@example.com", false), account("u_2", "a@example.com", true),
                        account("u_3", "b@example.com", nil)]
        let found = try Account.named(name, among: accounts, server: Self.server)
        #expect((found?.account.id.rawValue ?? "none") == expected)
        if expected == "u_3" { #expect(found?.match == .unverifiedEmail) }
    }
}

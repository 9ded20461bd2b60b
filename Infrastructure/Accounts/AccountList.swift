import Foundation
import Synchronization
import RiderDomain

/// A server's accounts as a value: the rules every ``AccountRegistry`` adapter follows (what
/// recording, activating and removing do, and the order they are listed in), kept in one place
/// so the file and the in-memory registry cannot drift apart. Also the registry file's format.
package struct AccountList: Codable, Hashable, Sendable {
    package static let currentVersion = 1

    package struct Entry: Codable, Hashable, Sendable {
        package var id: String
        package var email: String?
        package var name: String?
        package var signedInAt: Date?
        /// Whether `email` is verified; `nil` in a file from before it was recorded.
        package var emailVerified: Bool?

        enum CodingKeys: String, CodingKey {
            case id, email, name
            case signedInAt = "signed_in_at"
            case emailVerified = "email_verified"
        }
    }

    package var version: Int
    /// The API origin.
    package var server: String
    /// Where the server's tokens come from, once a session was stored (an issuer's token endpoint
    /// may live on another origin): what a vault of this server is bound to.
    package var tokenEndpointOrigin: String?
    package var active: String?
    package var entries: [Entry]

    enum CodingKeys: String, CodingKey {
        case version, server, active
        case tokenEndpointOrigin = "token_endpoint_origin"
        case entries = "accounts"
    }

    package init(server: String) {
        version = Self.currentVersion
        self.server = server
        entries = []
    }

    /// The accounts, the active one first, then the most recently signed in.
    package var accounts: [Account] {
        entries.map {
            var account = Account(id: UserID($0.id), server: server, email: $0.email, name: $0.name,
                                  isActive: $0.id == active, signedInAt: $0.signedInAt)
            account.emailVerified = $0.emailVerified
            return account
        }
        .sorted { lhs, rhs in
            if lhs.isActive != rhs.isActive { return lhs.isActive }
            return (lhs.signedInAt ?? .distantPast) > (rhs.signedInAt ?? .distantPast)
        }
    }

    package mutating func record(_ account: Account, activate: Bool) {
        var entry = Entry(id: account.id.rawValue, email: account.email, name: account.name,
                          signedInAt: account.signedInAt, emailVerified: account.emailVerified)
        if let index = entries.firstIndex(where: { $0.id == entry.id }) {
            // A refresh knows no more than the sign-in did: keep what is known. Whether the email
            // is verified goes with the email it was said of.
            if entry.email == nil { entry.emailVerified = entries[index].emailVerified }
            entry.email = entry.email ?? entries[index].email
            entry.name = entry.name ?? entries[index].name
            entry.signedInAt = entry.signedInAt ?? entries[index].signedInAt
            entries[index] = entry
        } else {
            entries.append(entry)
        }
        if activate || active == nil || !entries.contains(where: { $0.id == active }) { active = entry.id }
    }

    package mutating func activate(_ account: UserID) throws {
        guard entries.contains(where: { $0.id == account.rawValue }) else {
            throw RiderError.unknownAccount(account.rawValue, server: server, stored: accounts.map(\.displayName))
        }
        active = account.rawValue
    }

    package mutating func remove(_ account: UserID) -> Account? {
        entries.removeAll { $0.id == account.rawValue }
        if active == account.rawValue {
            active = entries.max { ($0.signedInAt ?? .distantPast) < ($1.signedInAt ?? .distantPast) }?.id
        }
        return accounts.first(where: \.isActive)
    }

    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(self)
    }

    package static func decode(_ data: Data) throws -> AccountList {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(AccountList.self, from: data)
    }
}

/// Hands each change of a server's accounts to every observer in the process, whichever
/// registry instance made it (two `RiderKit`s bound to two accounts of one server share them).
package final class AccountChangeObservers: Sendable {
    package static let shared = AccountChangeObservers()
    private let observers = Mutex<[String: [UUID: AsyncStream<AccountsChange>.Continuation]]>([:])

    package func stream(for key: String, current: [Account]) -> AsyncStream<AccountsChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: AccountsChange.self, bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        continuation.yield(AccountsChange(accounts: current))
        observers.withLock { $0[key, default: [:]][id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.observers.withLock { _ = $0[key]?.removeValue(forKey: id) } }
        return stream
    }

    package func publish(_ accounts: [Account], for key: String) {
        let continuations = observers.withLock { Array(($0[key] ?? [:]).values) }
        for continuation in continuations { continuation.yield(AccountsChange(accounts: accounts)) }
    }
}

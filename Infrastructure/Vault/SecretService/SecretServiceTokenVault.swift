import Foundation
import RiderDomain

/// Keeps the session in the desktop keyring through the freedesktop Secret Service (libsecret):
/// GNOME Keyring, KWallet's Secret Service, KeePassXC.
///
/// Each item uses the schema `org.riderkit.Session` with non-secret attributes, `service` and
/// `server` (both the API origin: `service` is how items were always found, `server` names it for
/// people and other tools) and `account` (the user id), and a label a person recognises in their
/// keyring manager (`rider: ana@example.com on api.example.com`). The whole session, serialized and tagged (``KeyringSecretEncoding``), is the secret;
/// nothing secret goes in attributes. An existing item is updated in place, never replaced.
///
/// Every call runs off the cooperative pool and is cancelled after ``timeout``; each operation
/// first checks that the default collection exists and is unlocked, because libsecret otherwise
/// reports a missing keyring as "no such item". Reads go over the bus in a `plain` Secret Service
/// session, without libsecret's Diffie-Hellman key exchange (`SecretServiceBus`); writes go
/// through libsecret.
public actor SecretServiceTokenVault: TokenVault {
    /// The API origin, stored as the `service` attribute.
    package nonisolated let service: String
    /// The server whose session this vault keeps: items are found by its API origin (the
    /// `service` attribute), and a session that records another token endpoint is refused.
    package nonisolated let binding: SessionBinding
    /// When set, only this account's item is used; when `nil` the vault holds the one current
    /// session for ``service`` and saving a different account replaces the previous item.
    package nonisolated let account: String?
    /// How long any keyring call may take before it is cancelled.
    package nonisolated let timeout: Duration
    /// How the last read that reached the keyring got its answer: over the bus in a `plain`
    /// session, or through libsecret (and its key exchange) and why. For tests and benchmarks.
    package private(set) var lastReadRoute: SecretServiceReadRoute?

    /// - Parameters:
    ///   - service: the API origin, e.g. `https://api.example.com`.
    ///   - account: scope the vault to one user id, or `nil` for the server's current session.
    ///   - timeout: the bound on each keyring call (2 s by default).
    public init(service: String, account: String? = nil, timeout: Duration = .seconds(2)) {
        self.init(binding: SessionBinding(apiOrigin: service), account: account, timeout: timeout)
    }

    /// - Parameters:
    ///   - binding: the server: its API origin is the `service` attribute, and a stored session
    ///     recording another server is refused with ``VaultError/boundToAnotherServer(location:stored:requested:)``.
    ///   - account: scope the vault to one user id, or `nil` for the server's current session.
    ///   - timeout: the bound on each keyring call (2 s by default).
    public init(binding: SessionBinding, account: String? = nil, timeout: Duration = .seconds(2)) {
        self.binding = binding
        self.service = binding.apiOrigin
        self.account = account
        self.timeout = timeout
    }

    public nonisolated var location: String {
        "Secret Service keyring (schema \(SecretServiceClient.schemaName), service \(service))"
    }

    /// The label of the item for `account` (its email when known, else its id), as shown in
    /// keyring managers.
    package nonisolated func label(forAccount account: String) -> String {
        let host = URLComponents(string: service)?.host ?? service
        return "rider: \(account) on \(host)"
    }

    /// Checks that a Secret Service answers with an unlocked default collection.
    /// - Returns: the default collection's label.
    /// - Throws: ``VaultError/unavailable(reason:)`` or ``VaultError/timedOut(after:)``.
    package func checkAvailable() async throws(VaultError) -> String {
        let timeout = timeout
        let probe = try await KeyringCall.run(timeout: timeout) { cancellable throws(VaultError) in
            try SecretServiceClient.probe(timeout: timeout, cancellable)
        }
        return try Self.unlocked(probe)
    }

    private static func unlocked(_ probe: SecretServiceClient.Probe) throws(VaultError) -> String {
        guard !probe.locked else {
            throw .unavailable(reason: "the keyring \"\(probe.collectionLabel)\" is locked; unlock it (log in to "
                + "the desktop session) or use the encrypted file")
        }
        return probe.collectionLabel
    }

    public func loadSession() async throws -> Session? {
        do { return try await load()?.session } catch { throw error.riderError }
    }

    public func saveSession(_ session: Session) async throws {
        do { try await save(session) } catch { throw error.riderError }
    }

    public func removeSession() async throws {
        do { try await remove() } catch { throw error.riderError }
    }

    /// The stored session and the account it is filed under.
    /// - Throws: ``VaultError``; a foreign or damaged secret is ``VaultError/unreadableSecret(detail:)``.
    package func load() async throws(VaultError) -> (session: Session, account: String)? {
        let attributes = baseAttributes
        let timeout = timeout
        let read = try await KeyringCall.run(timeout: timeout) { cancellable throws(VaultError) in
            try SecretServiceClient.read(attributes, timeout: timeout, cancellable)
        }
        lastReadRoute = read.route
        _ = try Self.unlocked(read.probe)
        guard let secret = read.secret else { return nil }
        let serialized = try KeyringSecretEncoding.decode(secret)
        let stored: StoredSession
        do {
            stored = try StoredSession.decode(serialized)
        } catch {
            throw .unreadableSecret(detail: "it is not a serialized session")
        }
        guard stored.version <= StoredSession.currentVersion else {
            throw .unreadableSecret(detail: "it was written by a newer RiderKit (format \(stored.version))")
        }
        // Found by the API origin already; a session from before bindings has only that to go on.
        if let recorded = stored.binding, recorded != binding {
            throw .boundToAnotherServer(location: "the keyring item \"\(label(forAccount: stored.userID))\"",
                                        stored: recorded.description, requested: binding.description)
        }
        return (stored.toDomain(), stored.userID)
    }

    /// Stores `session` under its own account, then removes the previous account's item, so a
    /// failure leaves the previous session in place.
    package func save(_ session: Session) async throws(VaultError) {
        let previous: (session: Session, account: String)?
        do {
            previous = try await load()
        } catch {
            // A foreign item under our attributes, or a session of this API from another token
            // endpoint (never sent anywhere: load refuses it), is not a reason to refuse a new session.
            switch error {
            case .unreadableSecret, .boundToAnotherServer: previous = nil
            default: throw error
            }
        }
        let newAccount = account ?? session.userID.rawValue
        let data: Data
        do { data = try StoredSession(session, binding: binding).encoded() } catch {
            throw .unreadableSecret(detail: "the session cannot be serialized")
        }
        let secret = KeyringSecretEncoding.encode(data)
        let attributes = ["service": service, "server": service, "account": newAccount]
        let label = label(forAccount: session.userID.rawValue == newAccount ? session.identity?.email ?? newAccount : newAccount)
        try await store(secret, label: label, attributes: attributes,
                        identity: ["service": service, "account": newAccount])
        if let previous, previous.account != newAccount, account == nil {
            try await clear(["service": service, "account": previous.account])
        }
    }

    /// Writes the item, trying again when the keyring refuses (three attempts, 0.2 s and 0.6 s
    /// apart) or stalls (two attempts, each bounded by ``timeout``).
    ///
    /// A save often follows a refresh, after which the server has retired the old refresh token:
    /// a keyring that is busy for a moment (a collection being unlocked, a provider's database
    /// being written) must not cost the session. The caller holds the refresh lock throughout,
    /// so no other process refreshes with the retired token meanwhile. A keyring that keeps
    /// failing fails for good here; ``AutomaticTokenVault`` then uses the encrypted file.
    private func store(_ secret: String, label: String, attributes: [String: String],
                       identity: [String: String]) async throws(VaultError) {
        var attempt = 1
        while true {
            do {
                try await KeyringCall.run(timeout: timeout) { cancellable throws(VaultError) in
                    try SecretServiceClient.store(secret, label: label, attributes: attributes, identity: identity,
                                                  cancellable)
                }
                return
            } catch {
                switch error {
                case .unavailable where attempt < 3, .timedOut where attempt < 2: break
                default: throw error
                }
                do {
                    try await Task.sleep(for: .milliseconds(200 * (attempt == 1 ? 1 : 3)))
                } catch {
                    throw .unavailable(reason: "saving was cancelled")
                }
                attempt += 1
            }
        }
    }

    /// Removes the session item(s) of this vault; nothing to remove is not an error.
    package func remove() async throws(VaultError) {
        _ = try await checkAvailable()
        try await clear(baseAttributes)
    }

    /// Removes every item matching `attributes`.
    ///
    /// libsecret's clear first finds the items, then deletes them; when another process (or
    /// another call) deletes one in between, that delete fails ("No such interface
    /// org.freedesktop.Secret.Item") although the item is gone, as asked. Found by
    /// `make race-check`: two removals at once, such as a logout racing an expired refresh. So a
    /// failed clear is tried again, and finds only what is still there; a keyring that really
    /// refuses fails every attempt, and a timeout, having waited its full time, is not retried.
    /// (libsecret 0.20.5 also prints "GLib-GIO-CRITICAL … g_task_return_boolean: assertion
    /// '!task->ever_returned' failed" when such a delete fails: its own bookkeeping, harmless.)
    private func clear(_ attributes: [String: String]) async throws(VaultError) {
        var attempt = 1
        while true {
            do {
                _ = try await KeyringCall.run(timeout: timeout) { cancellable throws(VaultError) in
                    try SecretServiceClient.clear(attributes, cancellable)
                }
                return
            } catch {
                guard case .unavailable = error, attempt < 3 else { throw error }
                attempt += 1
            }
        }
    }

    private var baseAttributes: [String: String] {
        var attributes = ["service": service]
        if let account { attributes["account"] = account }
        return attributes
    }
}

import Foundation
import Logging
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

/// The library as an app embeds it (`RiderKit.live`, encrypted session file, SQLite cache) over a
/// whole session against the reference server, with every logger at trace level, since a secret
/// written anywhere outlives the session. The CLI's own output is covered by ``SecretHygieneTests``.
@Suite("RiderKit: no secret in any log line, error or file; private modes after every write")
struct SecretHygieneAcrossTheStackTests {
    static let passphrase = "SECRET-vault-passphrase-4711"
    static let wrongPassword = "SECRET-wrong-password-0815"

    @Test("a whole session at trace level: no token, password or passphrase in logs, errors, or any file's bytes")
    func wholeSession() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rider-hygiene-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try await withReferenceServer(ReferenceServerConfiguration(seedUsers: 50, accessTokenTTL: .seconds(3600))) { server in
            try await runSession(against: server, in: root)
        }
    }

    private func runSession(against server: RunningReferenceServer, in root: URL) async throws {
        let lines = CapturedLines()
        var logger = Logger(label: "rider.hygiene") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .trace
        let directories = XDGDirectories(environment: ["HOME": root.path])
        let kit = try RiderKit.live(configuration: RiderKit.Configuration(
            api: try APIConfiguration(baseURL: server.baseURL, requestTimeout: 60),
            vault: .encryptedFile(nil), directories: directories, vaultPassphrase: .fixed(Self.passphrase),
            logger: logger, warnings: logger))
        var errors: [any Error] = []
        var fileSnapshots: [String: Data] = [:]
        func afterWrite(_ step: String) throws {
            try expectPrivateModes(under: root, after: step)
            for (path, data) in try filesBytes(under: root) { fileSnapshots["\(step): \(path)"] = data }
        }

        do {
            _ = try await kit.login(Credentials(email: Demo.email, password: Self.wrongPassword))
            Issue.record("a wrong password signed in")
        } catch {
            errors.append(error)
        }
        let session = try await kit.login(Credentials(email: Demo.email, password: Demo.password))
        try afterWrite("login")
        _ = try await kit.currentUser()
        _ = try await kit.searchUsers("demo", page: try PageRequest(page: 1, limit: 20))
        _ = try await kit.getUser(session.userID)
        try afterWrite("cache writes")
        let rider = try await kit.profile.get()
        _ = try await kit.profile.update(RiderPatch(description: .set("Gravel on Sundays.")), basedOn: rider.entityTag)
        do {
            _ = try await kit.getUser("u_999999", policy: .networkOnly)
        } catch {
            errors.append(error)
        }
        await server.store.expireAccessTokens()
        _ = try await kit.currentUser(policy: .networkOnly)
        try afterWrite("refresh after 401")
        _ = try await kit.sessions.refresh()
        try afterWrite("explicit refresh")
        _ = try await kit.logout()
        try afterWrite("logout")
        do {
            _ = try await kit.sessions.refresh()
        } catch {
            errors.append(error)
        }

        let secrets = await server.store.issuedTokens() + [Demo.password, Self.wrongPassword, Self.passphrase]
        #expect(secrets.count > 4, "the session should have issued tokens")
        #expect(errors.count == 3)
        let logText = lines.all
        #expect(logText.contains { $0.contains("POST") }, "trace logging should have recorded the requests")
        let errorTexts = errors.flatMap { renderings(ofError: $0).map { "\($0.key): \($0.value)" } }
        // Counted, never printed: a failure must not put the secret into the test log either.
        #expect(leaks(of: secrets, in: logText) == 0, "a secret appeared in a log line")
        #expect(leaks(of: secrets, in: errorTexts) == 0, "a secret appeared in an error's rendering")
        let leakingFiles = fileSnapshots.filter { _, data in secrets.contains { data.range(of: Data($0.utf8)) != nil } }
        #expect(leakingFiles.isEmpty, "secrets in the bytes of \(leakingFiles.keys.sorted())")
        #expect(fileSnapshots.keys.contains { $0.hasPrefix("cache writes") && $0.hasSuffix(".sqlite") },
                "the SQLite cache file should have been inspected: \(fileSnapshots.keys.sorted())")
    }

    private func leaks(of secrets: [String], in texts: [String]) -> Int {
        texts.filter { text in secrets.contains { text.contains($0) } }.count
    }

    /// Every file under `root` with its bytes (the session file, the SQLite cache and its WAL).
    private func filesBytes(under root: URL) throws -> [(String, Data)] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var files: [(String, Data)] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files.append((url.path.replacingOccurrences(of: root.path, with: ""), try Data(contentsOf: url)))
        }
        return files
    }

    /// Folders RiderKit made are 0700 and its files 0600 (SQLite's -wal and -shm included).
    private func expectPrivateModes(under root: URL, after step: String,
                                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        for base in [root.appendingPathComponent(".local/state/rider"), root.appendingPathComponent(".cache/rider")] {
            guard FileManager.default.fileExists(atPath: base.path),
                  let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isDirectoryKey])
            else { continue }
            for case let url as URL in walker {
                let isFolder = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
                let mode = try permissions(of: url)
                #expect(mode == (isFolder ? 0o700 : 0o600),
                        "after \(step): \(url.lastPathComponent) has mode \(String(mode, radix: 8))",
                        sourceLocation: sourceLocation)
            }
        }
    }
}

/// Log lines collected from any task.
final class CapturedLines: @unchecked Sendable {
    // @unchecked: `lines` is only touched while `lock` is held.
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        lines.append(line)
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}

/// A swift-log handler at trace level that keeps each message with its metadata.
struct CapturingLogHandler: LogHandler {
    let lines: CapturedLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.append("\(event.level) \(event.message) \(merged) \(event.source) \(event.function)")
    }
}

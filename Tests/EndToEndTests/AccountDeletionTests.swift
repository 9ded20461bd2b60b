import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: account deletion")
struct AccountDeletionTests {
    @Test("account delete --yes deletes on the server and leaves no session file and no cached user behind")
    func deleteLeavesNothing() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            #expect(try await sandbox.rider("whoami").status == 0)
            #expect(try await sandbox.rider("users", "search", "a", "--limit", "20").status == 0)
            let cache = try #require(cacheFile(in: sandbox))
            #expect(cacheText(cache).contains(Demo.email), "the account is cached before the deletion")
            #expect(sandbox.sessionFile() != nil)

            let delete = try await sandbox.rider("account", "delete", "--yes", "--json")
            #expect(delete.status == 0, "\(delete)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(delete.stdout.utf8)) as? [String: Any])
            #expect(body["user_id"] as? String == Demo.userID)

            #expect(sandbox.sessionFile() == nil, "the vault entry is gone")
            let text = cacheText(cache)
            #expect(!text.contains(Demo.email) && !text.contains("Demo Rider"), "no cached data of the account on disk")
            let stats = try await sandbox.rider("cache", "stats", "--json")
            let statistics = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
            #expect(statistics["entries"] as? Int == 0, "\(stats)")

            #expect(try await sandbox.rider("whoami").status == 4)
            let login = try await sandbox.loginAsDemo()
            #expect(login.status == 3, "the account no longer exists on the server: \(login)")
            #expect(await server.store.issuedTokens().isEmpty == false)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("without --yes and without a terminal nothing is deleted (exit 2); signed out it exits 4")
    func needsConfirmation() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            let signedOut = try await sandbox.rider("account", "delete", "--yes")
            #expect(signedOut.status == 4, "\(signedOut)")

            #expect(try await sandbox.loginAsDemo().status == 0)
            let unconfirmed = try await sandbox.rider("account", "delete")
            #expect(unconfirmed.status == 2, "\(unconfirmed)")
            #expect(unconfirmed.stderr.contains("--yes"), "\(unconfirmed)")
            #expect(try await sandbox.rider("whoami").status == 0, "the account and session are untouched")
        }
    }

    private func cacheFile(in sandbox: Sandbox) -> URL? {
        let cache = sandbox.root.appendingPathComponent("home/.cache/rider")
        guard let files = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil) else { return nil }
        return files.compactMap { $0 as? URL }.first { $0.lastPathComponent.hasPrefix("users.") && $0.pathExtension == "sqlite" }
    }

    /// The cache file and its write-ahead log as text, to look for what must not be there.
    private func cacheText(_ file: URL) -> String {
        var bytes = (try? Data(contentsOf: file)) ?? Data()
        bytes.append((try? Data(contentsOf: URL(fileURLWithPath: file.path + "-wal"))) ?? Data())
        return String(decoding: bytes, as: UTF8.self)
    }
}

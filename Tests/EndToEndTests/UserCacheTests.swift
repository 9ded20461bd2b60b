import Foundation
import RiderReferenceServer
import Testing
import TestSupport

@Suite("rider CLI: the user cache")
struct UserCacheTests {
    @Test("users search answers from the cache when the server has stopped, and says it is offline")
    func offlineSearch() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let online = try await sandbox.rider("users", "search", "jo", "--limit", "10")
            #expect(online.status == 0, "\(online)")
            #expect(!online.stdout.contains("OFFLINE"), "\(online)")
            let onlineRows = online.lines.filter { $0.hasPrefix("u_") }
            #expect(onlineRows.count == 10, "\(online)")

            await server.stop()

            let offline = try await sandbox.rider("users", "search", "jo", "--limit", "10")
            #expect(offline.status == 0, "\(offline)")
            #expect(offline.lines.first?.hasPrefix("total ") == true, "\(offline)")
            // Standard output is the header, then the rows; the notice goes to standard error.
            #expect(offline.lines.dropFirst().allSatisfy { $0.hasPrefix("u_") }, "\(offline)")
            #expect(offline.errorLines.first?.hasPrefix("OFFLINE: The server cannot be reached") == true,
                    "\(offline)")
            #expect(offline.stderr.contains("local cache"), "\(offline)")
            let offlineRows = offline.lines.filter { $0.hasPrefix("u_") }
            #expect(Set(offlineRows.map { $0.prefix(8) }) == Set(onlineRows.map { $0.prefix(8) }), "\(offline)")

            let json = try await sandbox.rider("users", "search", "jo", "--limit", "10", "--json")
            #expect(json.status == 0, "\(json)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let cache = try #require(object["cache"] as? [String: Any])
            #expect(cache["source"] as? String == "offline")
            #expect(cache["stale"] as? Bool == true)

            let stats = try await sandbox.rider("cache", "stats")
            #expect(stats.status == 0, "\(stats)")
            #expect(stats.lines.contains { $0.hasPrefix("entries") && $0.contains("10 of at most 50000") }, "\(stats)")
            await expectNoSecretsLeaked(from: server, in: sandbox)

            // The cache file (and its write-ahead log) holds users only: no token, no password.
            let file = try #require(cacheFile(in: sandbox))
            var bytes = try Data(contentsOf: file)
            bytes.append((try? Data(contentsOf: URL(fileURLWithPath: file.path + "-wal"))) ?? Data())
            let text = String(decoding: bytes, as: UTF8.self)
            let tokens = await server.store.issuedTokens()
            #expect(!tokens.isEmpty)
            #expect(tokens.filter { text.contains($0) }.isEmpty, "an issued token is in the cache file")
            #expect(!text.contains(Demo.password), "the password is in the cache file")
        }
    }

    @Test("users show answers a fresh entry from the cache and says so; cache-only never needs the server")
    func showFromCache() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let first = try await sandbox.rider("users", "show", "u_000007")
            #expect(first.status == 0, "\(first)")
            #expect(first.lines.contains { $0.hasPrefix("source") && $0.hasSuffix("from the server") }, "\(first)")

            await server.stop()

            let cached = try await sandbox.rider("users", "show", "u_000007", "--policy", "cache-only")
            #expect(cached.status == 0, "\(cached)")
            #expect(cached.lines.contains { $0.hasPrefix("source") && $0.contains("from the local cache") }, "\(cached)")
            let missing = try await sandbox.rider("users", "show", "u_000008", "--policy", "cache-only")
            #expect(missing.status == 5, "\(missing)")
        }
    }

    @Test("whoami --policy cache-first answers from the cache without the server; plain whoami needs the server")
    func whoamiFromCache() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let online = try await sandbox.rider("whoami")
            #expect(online.status == 0, "\(online)")

            await server.stop()

            let cached = try await sandbox.rider("whoami", "--policy", "cache-first")
            #expect(cached.status == 0, "\(cached)")
            #expect(cached.stdout.contains(Demo.email), "\(cached)")
            #expect(cached.lines.contains { $0.hasPrefix("source") && $0.contains("from the local cache") }, "\(cached)")
            let networkOnly = try await sandbox.rider("whoami")
            #expect(networkOnly.status != 0, "\(networkOnly)")
        }
    }

    @Test("cache stats counts hits and misses; cache clear empties it; logout clears it too")
    func statsClearAndLogout() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            #expect(try await sandbox.rider("users", "search", "ma", "--limit", "5").status == 0)
            _ = try await sandbox.rider("users", "show", "u_000001")

            let stats = try await sandbox.rider("cache", "stats", "--json")
            #expect(stats.status == 0, "\(stats)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
            #expect((object["entries"] as? Int ?? 0) >= 5, "\(stats)")
            #expect((object["size_on_disk_bytes"] as? Int ?? 0) > 0, "\(stats)")
            let lookups = (object["hits"] as? Int ?? 0) + (object["misses"] as? Int ?? 0)
            #expect(lookups == 1, "users show looked the cache up once: \(stats)")
            #expect((object["location"] as? String)?.contains("/users.") == true, "\(stats)")

            let clear = try await sandbox.rider("cache", "clear")
            #expect(clear.status == 0, "\(clear)")
            #expect(clear.stdout.hasPrefix("Removed "), "\(clear)")
            let empty = try await sandbox.rider("cache", "stats", "--json")
            #expect(empty.stdout.contains("\"entries\":0") || empty.stdout.contains("\"entries\" : 0"), "\(empty)")

            let again = try await sandbox.rider("users", "search", "ma", "--limit", "5")
            #expect(again.status == 0)
            let emails = again.lines.filter { $0.hasPrefix("u_") }.compactMap { line in
                line.split(separator: " ").first { $0.contains("@") }.map(String.init)
            }
            #expect(emails.count == 5, "\(again)")
            #expect(try await sandbox.rider("logout").status == 0)
            let afterLogout = try await sandbox.rider("cache", "stats")
            #expect(afterLogout.lines.contains { $0.hasPrefix("entries") && $0.contains("0 of at most") }, "\(afterLogout)")
            // The next person at this machine finds nothing of them on disk either.
            let file = try #require(cacheFile(in: sandbox))
            var bytes = try Data(contentsOf: file)
            bytes.append((try? Data(contentsOf: URL(fileURLWithPath: file.path + "-wal"))) ?? Data())
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(emails.filter { text.contains($0) }.isEmpty, "a logged-out user's search results are still in the file")
        }
    }

    @Test("a damaged cache file is moved aside with a warning on stderr, and the command still works")
    func recoversFromDamage() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            #expect(try await sandbox.rider("users", "search", "jo", "--limit", "5").status == 0)
            let file = try #require(cacheFile(in: sandbox))
            try Data(repeating: 0x5A, count: 4_096).write(to: file)
            try? FileManager.default.removeItem(atPath: file.path + "-wal")

            let run = try await sandbox.rider("users", "search", "jo", "--limit", "5")

            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.contains("rider: warning:") && run.stderr.contains("moved aside"), "\(run)")
            let folder = file.deletingLastPathComponent().path
            let aside = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".corrupt-") }
            #expect(!aside.isEmpty)
        }
    }

    @Test("each rider process closes the cache before it exits: what it stored is in the file, no open marker is left")
    func closesBeforeExit() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let search = try await sandbox.rider("users", "search", "jo", "--limit", "5", "--json")
            #expect(search.status == 0, "\(search)")
            let file = try #require(cacheFile(in: sandbox))
            #expect(!FileManager.default.fileExists(atPath: file.path + "-open"), "closed cleanly")
            // Read with another program: the batch reached the file before rider exited.
            let rows = try Self.sqlite(file, "SELECT count(*) FROM user")
            #expect((Int(rows) ?? 0) >= 5, "rows: \(rows)")
            // Also after a failing command (exit 4: not found).
            let missing = try await sandbox.rider("users", "show", "u_999999")
            #expect(missing.status != 0)
            #expect(!FileManager.default.fileExists(atPath: file.path + "-open"))
        }
    }

    @Test("cache check reads every page: a sound cache says so; a damaged one is moved aside and the cache starts empty")
    func checkCommand() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            #expect(try await sandbox.rider("users", "list", "--all", "--limit", "100").status == 0)
            let sound = try await sandbox.rider("cache", "check", "--json")
            #expect(sound.status == 0, "\(sound)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(sound.stdout.utf8)) as? [String: Any])
            #expect(report["sound"] as? Bool == true, "\(sound)")
            #expect(report["moved_aside"] is NSNull, "\(sound)")

            let file = try #require(cacheFile(in: sandbox))
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)
            let handle = try FileHandle(forWritingTo: file)
            try handle.seek(toOffset: UInt64(size.intValue / 2))
            try handle.write(contentsOf: Data(repeating: 0xEE, count: 4_096))
            try handle.close()

            let damaged = try await sandbox.rider("cache", "check")
            #expect(damaged.status == 0, "\(damaged)")
            #expect(damaged.stdout.contains("was damaged: it was moved aside to"), "\(damaged)")
            let aside = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
            #expect(aside.contains { $0.contains(".corrupt-") })
            let stats = try await sandbox.rider("cache", "stats", "--json")
            #expect(stats.stdout.contains(#""entries":0"#), "\(stats)")
        }
    }

    /// One value from the file through Python's sqlite3 module, a reader that is not RiderKit.
    private static func sqlite(_ file: URL, _ query: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])",
                             file.path, query]
        let output = UninheritedFiles.pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("several rider processes searching at once share the cache file without errors")
    func concurrentProcesses() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let queries = ["jo", "ma", "an", "el", "da", "li"]
            let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
                for query in queries {
                    group.addTask { try await sandbox.rider("users", "search", query, "--limit", "50").status }
                }
                var statuses: [Int32] = []
                for try await status in group { statuses.append(status) }
                return statuses
            }
            #expect(statuses == Array(repeating: 0, count: queries.count))
            let stats = try await sandbox.rider("cache", "stats")
            #expect(stats.status == 0, "\(stats)")
        }
    }

    private func cacheFile(in sandbox: Sandbox) -> URL? {
        let cache = sandbox.root.appendingPathComponent("home/.cache/rider")
        guard let files = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil) else { return nil }
        return files.compactMap { $0 as? URL }.first { $0.lastPathComponent.hasPrefix("users.") && $0.pathExtension == "sqlite" }
    }
}

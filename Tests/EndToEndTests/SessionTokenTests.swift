import Foundation
import RiderReferenceServer
import Testing
import TestSupport

/// `rider session token`: the access token for a script, and nothing else (#18's `gh auth token`).
@Suite("rider CLI: session token")
struct SessionTokenTests {
    @Test("prints the session's access token and a newline, nothing else, and the server takes it")
    func printsAToken() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            let run = try await sandbox.rider("session", "token")
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.isEmpty, "\(run)")
            let token = String(run.stdout.dropLast())
            #expect(run.stdout.hasSuffix("\n") && !token.contains("\n"))
            #expect(await server.store.issuedTokens().contains(token), "one of the tokens the server issued")
            let (_, status) = try await DirectAPI(baseURL: server.baseURL).send("GET", "/auth/me", token: token)
            #expect(status == 200)
        }
    }

    static let curl = "/usr/bin/curl"

    @Test("--header prints the header line, which curl reads from standard input (-H @-), so no argv holds the token",
          .enabled(if: FileManager.default.isExecutableFile(atPath: curl), "needs \(curl)"))
    func headerLineForCurl() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            let run = try await sandbox.rider("session", "token", "--header")
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
            let line = String(run.stdout.dropLast())
            #expect(run.stdout.hasSuffix("\n") && !line.contains("\n"))
            let token = try #require(line.wholeMatch(of: /Authorization: Bearer ([!-~]+)/)?.1, "\(line)")
            #expect(await server.store.issuedTokens().contains(String(token)))

            // As the README and --help teach it: rider session token --header | curl -H @- URL
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: Self.curl)
            curl.arguments = ["-fsS", "-H", "@-", server.baseURL.appendingPathComponent("auth/me").absoluteString]
            #expect(curl.arguments?.contains { $0.contains(token) } == false)
            let input = UninheritedFiles.pipe(), output = UninheritedFiles.pipe()
            curl.standardInput = input
            curl.standardOutput = output
            try curl.run()
            try input.fileHandleForWriting.write(contentsOf: Data(run.stdout.utf8))
            try input.fileHandleForWriting.close()
            let body = output.fileHandleForReading.readDataToEndOfFile()
            curl.waitUntilExit()
            #expect(curl.terminationStatus == 0)
            #expect(String(decoding: body, as: UTF8.self).contains(Demo.email), "the server took the header")
        }
    }

    @Test("an access token about to expire is renewed first: the printed token is the new one")
    func renewsFirst() async throws {
        // One-second tokens, and a wait past the second: the token is expired as rider sees it.
        let configuration = ReferenceServerConfiguration(seedUsers: 3, accessTokenTTL: .seconds(1))
        try await withSandboxedReferenceServer(configuration) { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            try await Task.sleep(for: .milliseconds(1500))
            let before = await server.store.issuedTokens()
            let run = try await sandbox.rider("session", "token")
            #expect(run.status == 0, "\(run)")
            #expect(await server.store.stats().refreshGrants == 1)
            // The new token lives a second too, so it is recognised rather than used.
            let token = String(run.stdout.dropLast())
            #expect(!before.contains(token), "not the token the login got")
            #expect(await server.store.issuedTokens().contains(token), "one the refresh issued")
        }
    }

    @Test("refused with --verbose, --record or --json (exit 2) wherever they are written, which --help does not offer; signed out it exits 4 printing nothing",
          arguments: [["--verbose"], ["--record", "/tmp/rider-never-written"], ["--json"]])
    func refusals(extra: [String]) async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            for arguments in [["session", "token"] + extra, extra + ["session", "token"]] {
                let refused = try await sandbox.rider(arguments, environment: [:])
                #expect(refused.status == 2 && refused.stderr.contains("leave out \(extra[0])"), "\(refused)")
                #expect(refused.stdout.isEmpty)
            }
            let help = try await sandbox.rider("session", "token", "--help")
            #expect(help.status == 0 && help.stdout.contains("--server") && help.stdout.contains("--account"), "\(help)")
            // An option's own line: its name, then its value's name or the column gap before its help.
            let listed = help.lines.map { $0.trimmingCharacters(in: .whitespaces) }
                .contains { $0.hasPrefix(extra[0] + " <") || $0.hasPrefix(extra[0] + "  ") }
            #expect(!listed, "the options listed do not include what is refused: \(help)")
            let signedOut = try await sandbox.rider("session", "token")
            #expect(signedOut.status == 4, "\(signedOut)")
            #expect(signedOut.stdout.isEmpty)
        }
    }
}

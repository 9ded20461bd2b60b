import Foundation
import RiderReferenceServer
import Testing

/// Tokens for jobs (#33 item 4): `RIDER_TOKEN`, used as it is, and `rider login --with-token`,
/// kept as a session that is never renewed — as `GH_TOKEN` and `gh auth login --with-token`.
@Suite("rider CLI: RIDER_TOKEN and login --with-token")
struct GivenTokenTests {
    /// Every file under the sandbox's state and cache folders: where a vault, an account list or
    /// a user cache would be written.
    static func writtenFiles(in sandbox: Sandbox) -> [String] {
        ["home/.local/state", "home/.cache"].flatMap { folder -> [String] in
            let root = sandbox.root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            else { return [] }
            return files.compactMap { $0 as? URL }
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
                .map(\.path)
        }
    }

    @Test("RIDER_TOKEN: whoami and an API command work with it, nothing is written anywhere, and it is never refreshed")
    func environmentToken() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let token = try await DirectAPI(baseURL: server.baseURL).accessToken()
            let environment = ["RIDER_TOKEN": token]

            let whoami = try await sandbox.rider(["whoami", "--json"], environment: environment)
            #expect(whoami.status == 0, "\(whoami)")
            #expect(whoami.stdout.contains(Demo.email), "\(whoami)")
            let users = try await sandbox.rider(["users", "list", "--limit", "2"], environment: environment)
            #expect(users.status == 0, "\(users)")
            let show = try await sandbox.rider(["session", "show"], environment: environment)
            #expect(show.status == 0 && show.stdout.contains("not possible"), "\(show)")
            let refresh = try await sandbox.rider(["session", "refresh"], environment: environment)
            #expect(refresh.status == 4 && refresh.stderr.contains("cannot be renewed"), "\(refresh)")
            #expect(try await sandbox.rider(["whoami"], environment: environment).status == 0, "the token stands")

            #expect(Self.writtenFiles(in: sandbox).isEmpty, "\(Self.writtenFiles(in: sandbox))")
            #expect(sandbox.sessionFiles().isEmpty)
            #expect(await server.store.stats().refreshGrants == 0)
            // The stored sessions (none) are listed, with a word that the token is what commands use
            // (reading them takes the account list's lock file, so after the check above).
            let list = try await sandbox.rider(["session", "list", "--json"], environment: environment)
            #expect(list.status == 0 && list.stderr.contains("RIDER_TOKEN is set"), "\(list)")
            let sessions = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
            #expect((sessions?["sessions"] as? [Any])?.isEmpty == true, "\(list)")
            // Without the variable, nobody is signed in here.
            let signedOut = try await sandbox.rider("whoami")
            #expect(signedOut.status == 4, "\(signedOut)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("RIDER_TOKEN the server refuses (expired, or not its token): exit 4 naming RIDER_TOKEN, nothing stored",
          arguments: [true, false])
    func refusedEnvironmentToken(expired: Bool) async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            var token = "not-a-token-of-this-server"
            if expired {
                token = try await DirectAPI(baseURL: server.baseURL).accessToken()
                await server.store.expireAccessTokens()
            }
            let run = try await sandbox.rider(["whoami"], environment: ["RIDER_TOKEN": token])
            #expect(run.status == 4, "\(run)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("RIDER_TOKEN") && run.stderr.contains("refused"), "\(run)")
            #expect(!run.stderr.contains(token), "the token is never quoted")
            #expect(!run.stderr.contains("rider login"), "a session to log in again is not the fix: \(run)")
            #expect(await server.store.stats().refreshGrants == 0)
            #expect(Self.writtenFiles(in: sandbox).isEmpty)

            let json = try await sandbox.rider(["whoami", "--json"], environment: ["RIDER_TOKEN": token])
            #expect(json.status == 4 && json.stderr.contains("session_expired"), "\(json)")
        }
    }

    @Test("with RIDER_TOKEN set, login and logout are refused (exit 2): the stored session is out of play")
    func loginRefusedWithEnvironmentToken() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            let login = try await sandbox.rider(["login", "--email", Demo.email, "--password-stdin"],
                                                environment: ["RIDER_TOKEN": "some-token"], stdin: Demo.password + "\n")
            #expect(login.status == 2 && login.stderr.contains("RIDER_TOKEN"), "\(login)")
            let logout = try await sandbox.rider(["logout"], environment: ["RIDER_TOKEN": "some-token"])
            #expect(logout.status == 2 && logout.stderr.contains("RIDER_TOKEN"), "\(logout)")
            #expect(sandbox.sessionFiles().isEmpty)
        }
    }

    @Test("login --with-token: read from stdin, stored, whoami works, session show says it is not refreshable, logout removes it")
    func withToken() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let token = try await DirectAPI(baseURL: server.baseURL).accessToken()
            let login = try await sandbox.rider(["login", "--with-token"], environment: [:], stdin: token + "\n")
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout.contains(Demo.email) && login.stdout.contains("never renewed"), "\(login)")
            #expect(sandbox.sessionFiles().count == 1)

            let whoami = try await sandbox.rider("whoami")
            #expect(whoami.status == 0 && whoami.stdout.contains(Demo.email), "\(whoami)")
            let show = try await sandbox.rider("session", "show", "--json")
            #expect(show.status == 0, "\(show)")
            let object = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
            #expect(object?["refreshable"] as? Bool == false, "\(show)")
            let human = try await sandbox.rider("session", "show")
            #expect(human.stdout.contains("not possible"), "\(human)")
            // Asked to renew it, rider says it cannot and keeps it.
            let refresh = try await sandbox.rider("session", "refresh")
            #expect(refresh.status == 4 && refresh.stderr.contains("no refresh token"), "\(refresh)")
            #expect(try await sandbox.rider("whoami").status == 0)
            #expect(await server.store.stats().refreshGrants == 0)

            let logout = try await sandbox.rider("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(try await sandbox.rider("whoami").status == 4)
            #expect(try await sandbox.rider("session", "show").status == 4)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("login --with-token with a token the server refuses stores nothing (exit 4), and its session ends on a 401")
    func withRefusedToken() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let refused = try await sandbox.rider(["login", "--with-token"], environment: [:], stdin: "not-a-token\n")
            #expect(refused.status == 4 && refused.stderr.contains("refused"), "\(refused)")
            #expect(!refused.stderr.contains("not-a-token"))
            #expect(sandbox.sessionFiles().isEmpty)

            let token = try await DirectAPI(baseURL: server.baseURL).accessToken()
            #expect(try await sandbox.rider(["login", "--with-token"], environment: [:], stdin: token).status == 0)
            await server.store.expireAccessTokens()
            let expired = try await sandbox.rider("whoami")
            #expect(expired.status == 4 && expired.stderr.contains("no refresh token"), "\(expired)")
            #expect(await server.store.stats().refreshGrants == 0)
            #expect(try await sandbox.rider("session", "show").status == 4, "the session ended")
        }
    }

    @Test("a token on the command line is not accepted (exit 2), and not echoed back", arguments: [
        ["login", "--with-token", "tok-on-argv-123"], ["login", "--with-token=tok-on-argv-123"],
        ["login", "--token", "tok-on-argv-123"],
    ])
    func tokenOnArgv(arguments: [String]) async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            let run = try await sandbox.rider(arguments, environment: [:], stdin: "")
            #expect(run.status == 2, "\(run)")
            #expect(!run.stderr.contains("tok-on-argv-123"), "\(run)")
            #expect(sandbox.sessionFiles().isEmpty)
        }
    }
}

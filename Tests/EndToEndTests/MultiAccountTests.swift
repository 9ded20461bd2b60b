import Foundation
import RiderReferenceServer
import Testing
import TestSupport

/// Two servers, two accounts on each, through the `rider` CLI as a person or a script would use
/// them: list, switch, token, the caches kept apart, logging out of one (#18).
@Suite("rider CLI: several servers and accounts at once")
struct MultiAccountTests {
    static let ana = (email: "ana@example.com", password: "ana-password")

    /// Registers and logs in Ana on `server` (`--server` when it is not the sandbox's own).
    static func addAna(_ sandbox: Sandbox, server: [String] = []) async throws {
        let register = try await sandbox.rider(server + ["register", "--email", ana.email, "--display-name", "Ana",
                                                         "--type", "learner", "--password-stdin"],
                                               environment: [:], stdin: ana.password + "\n")
        #expect(register.status == 0, "\(register)")
        let login = try await sandbox.rider(server + ["login", "--email", ana.email, "--password-stdin"],
                                            environment: [:], stdin: ana.password + "\n")
        #expect(login.status == 0, "\(login)")
        #expect(login.stdout.contains("also signed in here: demo@example.com"), "\(login)")
    }

    /// `rider session list --json`, as (server, account, active) triples.
    static func listed(_ sandbox: Sandbox) async throws -> [(server: String, account: String, active: Bool)] {
        let run = try await sandbox.rider("session", "list", "--json")
        #expect(run.status == 0, "\(run)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let sessions = try #require(object["sessions"] as? [[String: Any]])
        #expect(sessions.allSatisfy { $0["state"] as? String == "signed_in" && $0["refreshable"] as? Bool == true })
        return sessions.map { ($0["server"] as? String ?? "", $0["account"] as? String ?? "", $0["active"] as? Bool ?? false) }
    }

    @Test("two servers with two accounts each: list, switch, token, separate caches, logout of one")
    func twoServersTwoAccounts() async throws {
        try await withSandboxedReferenceServer { home, sandbox in
            try await withReferenceServer { away in
                let elsewhere = ["--server", away.baseURL.absoluteString]
                let (here, there) = (home.baseURL.absoluteString.trimmingSuffix("/"),
                                     away.baseURL.absoluteString.trimmingSuffix("/"))
                #expect(try await sandbox.loginAsDemo().status == 0)
                try await Self.addAna(sandbox)
                let demoThere = try await sandbox.rider(elsewhere + ["login", "--email", Demo.email, "--password-stdin"],
                                                        environment: [:], stdin: Demo.password + "\n")
                #expect(demoThere.status == 0, "\(demoThere)")
                try await Self.addAna(sandbox, server: elsewhere)

                // Every session, the active one of each server marked: the last signed in.
                let all = try await Self.listed(sandbox)
                #expect(all.count == 4)
                #expect(Set(all.filter(\.active).map { "\($0.server) \($0.account)" })
                    == ["\(here) \(Self.ana.email)", "\(there) \(Self.ana.email)"])
                #expect(Set(all.map(\.server)) == [here, there])
                let table = try await sandbox.rider("session", "list")
                #expect(table.lines.count == 5 && table.lines.filter { $0.hasPrefix("*") }.count == 2, "\(table)")

                // One other account on the server: `switch` needs no flag.
                let switched = try await sandbox.rider("session", "switch")
                #expect(switched.status == 0 && switched.stdout.contains("Now using demo@example.com"), "\(switched)")
                let whoami = try await sandbox.rider("whoami", "--json")
                #expect(whoami.stdout.contains(#""email":"demo@example.com""#), "\(whoami)")
                // The other server's active account did not change.
                let thereWho = try await sandbox.rider(elsewhere + ["whoami", "--json"], environment: [:])
                #expect(thereWho.stdout.contains(#""email":"ana@example.com""#), "\(thereWho)")

                // --account and RIDER_ACCOUNT pick an account for one command, by email or id.
                let asAna = try await sandbox.rider(["whoami", "--json"], environment: ["RIDER_ACCOUNT": Self.ana.email])
                #expect(asAna.stdout.contains(#""email":"ana@example.com""#), "\(asAna)")
                let byID = try await sandbox.rider("--account", "u_000000", "whoami", "--json")
                #expect(byID.stdout.contains(#""email":"demo@example.com""#), "\(byID)")

                await expectNoSecretsLeaked(from: home, in: sandbox)  // before `session token` prints one, by design

                // A token for a script, of the account and server asked for, accepted by that server.
                for (server, account, email) in [(home, Self.ana.email, Self.ana.email), (away, Demo.email, Demo.email)] {
                    let run = try await sandbox.rider(["--server", server.baseURL.absoluteString, "session", "token",
                                                       "--account", account], environment: [:])
                    #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
                    let token = String(run.stdout.dropLast())
                    let (body, status) = try await DirectAPI(baseURL: server.baseURL).send("GET", "/auth/me", token: token)
                    #expect(status == 200)
                    #expect(String(decoding: body, as: UTF8.self).contains(email))
                }

                // A server with no session here names the servers that have some.
                let nowhere = try await sandbox.rider("--server", "http://127.0.0.1:9", "whoami")
                #expect(nowhere.status == 4, "\(nowhere)")
                #expect(nowhere.stderr.contains(here) && nowhere.stderr.contains(there), "\(nowhere)")

                // An unknown account is named, with the stored ones, and exits 4.
                let unknown = try await sandbox.rider("--account", "cy@example.com", "session", "token")
                #expect(unknown.status == 4 && unknown.stdout.isEmpty, "\(unknown)")
                #expect(unknown.stderr.contains("cy@example.com") && unknown.stderr.contains("demo@example.com, ana@example.com")
                    || unknown.stderr.contains("ana@example.com, demo@example.com"), "\(unknown)")

                // The caches are per account: Ana's search results are never shown to Demo.
                let searched = try await sandbox.rider("--account", Self.ana.email, "users", "search", "jose", "--json")
                #expect(searched.status == 0 && searched.stdout.contains("\"users\":[{"), "\(searched)")
                let anaCached = try await sandbox.rider("--account", Self.ana.email, "users", "search", "jose",
                                                        "--policy", "cache-only", "--json")
                #expect(anaCached.stdout.contains("\"users\":[{"), "\(anaCached)")
                let demoCached = try await sandbox.rider("users", "search", "jose", "--policy", "cache-only", "--json")
                #expect(!demoCached.stdout.contains("\"users\":[{"), "\(demoCached)")
                let stats = try await sandbox.rider("--account", Self.ana.email, "cache", "stats", "--json")
                #expect(stats.stdout.contains(#""account":"ana@example.com""#), "\(stats)")

                // Logging out of one account removes exactly its session (and its file) and cache.
                let files = sandbox.sessionFiles().count
                let logout = try await sandbox.rider("logout", "--account", Self.ana.email)
                #expect(logout.status == 0 && logout.stdout.contains("Logged out of ana@example.com"), "\(logout)")
                #expect(sandbox.sessionFiles().count == files - 1)
                let left = try await Self.listed(sandbox)
                #expect(left.count == 3 && !left.contains { $0.server == here && $0.account == Self.ana.email })
                let anaGone = try await sandbox.rider("--account", Self.ana.email, "users", "search", "jose",
                                                      "--policy", "cache-only")
                #expect(anaGone.status == 4, "\(anaGone)")
                #expect(try await sandbox.rider("whoami").status == 0, "Demo is still signed in here")

                // --all logs out of every account of one server; the other server's stay.
                let everyone = try await sandbox.rider(elsewhere + ["logout", "--all"], environment: [:])
                #expect(everyone.status == 0 && everyone.lines.count == 2, "\(everyone)")
                #expect(try await Self.listed(sandbox).map(\.server) == [here])
            }
        }
    }

    @Test("with several other accounts and no terminal, switch names them and changes nothing (exit 2)")
    func switchNamesTheCandidates() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            try await Self.addAna(sandbox)
            let register = try await sandbox.rider(["register", "--email", "cy@example.com", "--display-name", "Cy",
                                                    "--type", "learner", "--password-stdin"],
                                                   environment: [:], stdin: "cy-password\n")
            #expect(register.status == 0, "\(register)")
            let cy = try await sandbox.rider(["login", "--email", "cy@example.com", "--password-stdin"],
                                             environment: [:], stdin: "cy-password\n")
            #expect(cy.status == 0, "\(cy)")
            let run = try await sandbox.rider("session", "switch")
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.contains("ana@example.com") && run.stderr.contains("demo@example.com"), "\(run)")
            #expect(try await Self.listed(sandbox).first { $0.active }?.account == "cy@example.com")
            let chosen = try await sandbox.rider("session", "switch", "--account", Self.ana.email)
            #expect(chosen.status == 0, "\(chosen)")
            #expect(try await Self.listed(sandbox).first { $0.active }?.account == Self.ana.email)
        }
    }
}

extension MultiAccountTests {
    @Test("with no server configured, session list, session switch and logout --all read the stored sessions")
    func storedSessionsNeedNoServer() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            try await Self.addAna(sandbox)
            let unset = ["RIDER_BASE_URL": ""]

            let list = try await sandbox.rider(["session", "list"], environment: unset)
            #expect(list.status == 0, "\(list)")
            #expect(list.stdout.contains(Demo.email) && list.stdout.contains(Self.ana.email), "\(list)")

            let switched = try await sandbox.rider(["session", "switch", "--account", Demo.email], environment: unset)
            #expect(switched.status == 0, "\(switched)")
            #expect(try await Self.listed(sandbox).first { $0.active }?.account == Demo.email)

            let everyone = try await sandbox.rider(["logout", "--all"], environment: unset)
            #expect(everyone.status == 0 && everyone.lines.count == 2, "\(everyone)")
            #expect(everyone.lines.allSatisfy { $0.contains("revoked on the server") }, "\(everyone)")
            let none = try await sandbox.rider(["session", "list", "--json"], environment: unset)
            #expect(none.status == 0 && none.stdout.contains(#""sessions":[]"#), "\(none)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

import Foundation
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

/// `rider` given only the API's URL as a protected resource (`RIDER_RESOURCE`): no issuer, no
/// client id. It reads the API's RFC 9728 metadata, registers itself with the authorization
/// server it names (RFC 7591), signs in naming the resource (RFC 8707), and keeps the session
/// for that resource.
@Suite("rider CLI: sign-in from a protected resource's URL alone")
struct ResourceSignInTests {
    /// The resource alone, and the noting `$BROWSER`.
    static func resourceOnly(_ server: RunningReferenceServer, _ sandbox: Sandbox) throws
        -> (environment: [String: String], opened: URL) {
        let (script, opened) = try DeviceSignInTests.browser(in: sandbox)
        return (["RIDER_BASE_URL": "", "RIDER_RESOURCE": server.baseURL.absoluteString, "BROWSER": script.path], opened)
    }

    /// The registrations rider kept, by file.
    static func registrations(in sandbox: Sandbox) -> [URL] {
        let state = sandbox.root.appendingPathComponent("home/.local/state")
        guard let files = FileManager.default.enumerator(at: state, includingPropertiesForKeys: nil) else { return [] }
        return files.compactMap { $0 as? URL }.filter { $0.lastPathComponent == "client-registration.json" }
    }

    @Test("in the browser: registered once, signed in for the resource, the session works and says its resource; the next sign-in reuses the registration")
    func browser() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, opened) = try Self.resourceOnly(server, sandbox)
            var clients: [String] = []
            for round in 0..<2 {
                try? FileManager.default.removeItem(at: opened)
                let (run, answer) = try await DeviceSignInTests.signingIn(
                    sandbox, ["login", "--web"], environment: environment, opened: opened) { start in
                    let page = try await BrowserSignInTests.providerPage(behind: start)
                    clients.append(BrowserSignInTests.query("client_id", of: page))
                    return try await BrowserSignInTests.answerByForm(page, server: server)
                }
                #expect(answer.contains("Signed in"), "round \(round): \(answer)")
                #expect(run.status == 0, "round \(round): \(run)")
            }
            #expect(clients.count == 2 && clients[0] == clients[1] && !clients[0].isEmpty && clients[0] != PublicOAuthClient.id,
                    "one client registered, and reused: \(clients)")
            let kept = Self.registrations(in: sandbox)
            #expect(kept.count == 1)
            if let file = kept.first {
                let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
                #expect(mode == 0o600)
            }

            let whoami = try await sandbox.rider(["whoami"], environment: environment)
            #expect(whoami.status == 0 && whoami.stdout.contains(Demo.email), "\(whoami)")
            let list = try await sandbox.rider(["session", "list", "--json"], environment: environment)
            #expect(list.status == 0, "\(list)")
            #expect(list.stdout.contains(#""resource":"\#(server.baseURL.absoluteString)"#), "\(list)")
            let show = try await sandbox.rider(["session", "show"], environment: environment)
            #expect(show.stdout.contains("resource"), "\(show)")
            let shown = try await sandbox.rider(["provider", "show", "--json"], environment: environment)
            #expect(shown.status == 0 && shown.stdout.contains(#""client_id":"\#(clients[0])""#)
                && shown.stdout.contains(#""origin":"dynamic""#), "\(shown)")
            // The registration file, the config and every output: no token, code or verifier.
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("with a device code: the registered client may use the device grant too")
    func device() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, opened) = try Self.resourceOnly(server, sandbox)
            async let login = sandbox.rider(["login", "--device"], environment: environment)
            let page = try await DeviceSignInTests.openedPage(opened)
            #expect(try await DeviceSignInTests.answer(page, action: "approve", server: server) == 200)
            let run = try await login
            #expect(run.status == 0, "\(run)")
            #expect(try await sandbox.rider(["whoami"], environment: environment).status == 0)
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("a resource on another origin than the server is refused before anything is sent")
    func resourceElsewhere() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let run = try await sandbox.rider(["login", "--web"], environment: [
                "RIDER_BASE_URL": server.baseURL.absoluteString, "RIDER_RESOURCE": "https://elsewhere.example/mcp",
            ])
            #expect(run.status != 0 && run.stderr.contains("not on the server"), "\(run)")
            #expect(Self.registrations(in: sandbox).isEmpty)
        }
    }

    /// Signs in through the browser form with `environment`; the run.
    static func signIn(_ server: RunningReferenceServer, _ sandbox: Sandbox, environment: [String: String],
                       opened: URL) async throws -> RiderRun {
        try? FileManager.default.removeItem(at: opened)
        let (run, _) = try await DeviceSignInTests.signingIn(
            sandbox, ["login", "--web"], environment: environment, opened: opened) { start in
            try await BrowserSignInTests.answerByForm(try await BrowserSignInTests.providerPage(behind: start), server: server)
        }
        return run
    }

    @Test("rider request: the session's own server only, its answer as it is; the /admin resource with its scope answers")
    func request() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            var (environment, opened) = try Self.resourceOnly(server, sandbox)
            // The API is the server; the session is for its /admin resource.
            environment["RIDER_BASE_URL"] = server.baseURL.absoluteString
            environment["RIDER_RESOURCE"] = server.baseURL.absoluteString + "/admin"
            // Its metadata lists the minimal scopes; the one its route wants is asked for by name.
            environment["RIDER_SCOPE"] = "openid rider:admin"
            let login = try await Self.signIn(server, sandbox, environment: environment, opened: opened)
            #expect(login.status == 0, "\(login)")

            let stats = try await sandbox.rider(["request", "/admin/stats"], environment: environment)
            #expect(stats.status == 0, "\(stats) \(stats.stderr)")
            #expect(stats.stdout.contains(#""registered_clients":1"#), "\(stats)")
            let included = try await sandbox.rider(["request", "GET", "/admin/stats", "-i"], environment: environment)
            #expect(included.stdout.hasPrefix("HTTP 200\n"), "\(included)")

            let elsewhere = try await sandbox.rider(["request", "https://elsewhere.example/admin/stats"],
                                                    environment: environment)
            #expect(elsewhere.status == 9 && elsewhere.stderr.contains("not on"), "\(elsewhere)")
            let forged = try await sandbox.rider(["request", "/admin/stats", "--header", "Authorization: Bearer x"],
                                                 environment: environment)
            #expect(forged.status == 9, "\(forged)")
        }
    }

    @Test("a resource asking for a scope the session lacks, with nobody at a terminal: the error names the scope")
    func insufficientScope() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            var (environment, opened) = try Self.resourceOnly(server, sandbox)
            // The API is the server; the session is for its /admin resource.
            environment["RIDER_BASE_URL"] = server.baseURL.absoluteString
            environment["RIDER_RESOURCE"] = server.baseURL.absoluteString + "/admin"
            environment["RIDER_SCOPE"] = "openid"
            let login = try await Self.signIn(server, sandbox, environment: environment, opened: opened)
            #expect(login.status == 0, "\(login)")

            let refused = try await sandbox.rider(["request", "/admin/stats"], environment: environment)
            #expect(refused.status != 0 && refused.stderr.contains("rider:admin"), "\(refused)")
        }
    }
}

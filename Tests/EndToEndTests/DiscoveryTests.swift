import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: discovery from the issuer alone")
struct DiscoveryTests {
    /// The sandbox's environment with the issuer in place of the base URL.
    static func issuerOnly(_ server: RunningReferenceServer) -> [String: String] {
        ["RIDER_BASE_URL": "", "RIDER_ISSUER": server.baseURL.absoluteString]
    }

    static func json(_ run: RiderRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
    }

    @Test("provider show reads the server's metadata once, then from the cache; config show says where each value comes from")
    func providerShow() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let environment = Self.issuerOnly(server)
            let first = try await sandbox.rider(["provider", "show", "--json"], environment: environment)
            #expect(first.status == 0, "\(first)")
            let shown = try Self.json(first)
            #expect(shown["issuer"] as? String == server.baseURL.absoluteString)
            #expect(shown["source"] as? String == "network")
            let endpoints = try #require(shown["endpoints"] as? [String: String])
            #expect(endpoints["token_endpoint"] == server.baseURL.absoluteString + "/auth/token")
            #expect(endpoints["revocation_endpoint"] == server.baseURL.absoluteString + "/auth/revoke")
            #expect(endpoints["authorization_endpoint"] == server.baseURL.absoluteString + "/oauth2/authorize")
            #expect(endpoints["jwks_uri"] == server.baseURL.absoluteString + "/jwks.json")
            #expect(shown["grant_types_supported"] as? [String]
                == ["password", "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code",
                    "client_credentials"])

            let requests = await server.store.stats().requests
            let again = try await sandbox.rider(["provider", "show"], environment: environment)
            #expect(again.status == 0, "\(again)")
            #expect(again.lines.contains { $0.hasPrefix("from") && $0.contains("local cache") }, "\(again)")
            #expect(await server.store.stats().requests == requests, "the second run read provider.json")
            let file = sandbox.root.appendingPathComponent("home/.cache/rider")
            let kept = FileManager.default.enumerator(at: file, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.lastPathComponent == "provider.json" }
            #expect(kept?.count == 1)

            let config = try await sandbox.rider(["config", "show", "--json"], environment: environment)
            let settings = try #require(try Self.json(config)["settings"] as? [[String: Any]])
            func setting(_ key: String) -> [String: Any]? { settings.first { $0["key"] as? String == key } }
            #expect(setting("issuer")?["source"] as? String == "environment")
            #expect(setting("issuer")?["value"] as? String == server.baseURL.absoluteString)
            #expect(setting("token_path")?["source"] as? String == "discovery")
            #expect(setting("jwks_uri")?["source"] as? String == "unset")
            let flag = try await sandbox.rider(["--issuer", "https://id.example.test", "config", "show"], environment: environment)
            #expect(flag.lines.contains { $0.hasPrefix("issuer") && $0.contains("https://id.example.test") && $0.hasSuffix("--issuer") },
                    "\(flag)")
        }
    }

    @Test("login, refresh, whoami and logout with only the issuer configured go to the discovered endpoints")
    func signInWithIssuerOnly() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let environment = Self.issuerOnly(server)
            let login = try await sandbox.rider(["--verbose", "login", "--email", Demo.email, "--password-stdin"],
                                                environment: environment, stdin: Demo.password + "\n")
            #expect(login.status == 0, "\(login)")
            #expect(login.errorLines.contains { $0.contains("/.well-known/openid-configuration") }, "\(login)")
            #expect(await server.store.stats().passwordGrants == 1)

            let refresh = try await sandbox.rider(["--verbose", "session", "refresh"], environment: environment)
            #expect(refresh.status == 0, "\(refresh)")
            #expect(!refresh.errorLines.contains { $0.contains(".well-known") }, "metadata came from the cache: \(refresh)")
            #expect(await server.store.stats().refreshGrants == 1)

            let before = await server.store.stats().requests
            let whoami = try await sandbox.rider(["whoami"], environment: environment)
            #expect(whoami.status == 0 && whoami.stdout.contains(Demo.email), "\(whoami)")
            #expect(await server.store.stats().requests == before,
                    "with only an issuer there is no rider API to ask: no GET /auth/me at the issuer")
            let status = try await sandbox.rider(["vault", "status"], environment: environment)
            #expect(status.status == 0, "\(status)")

            let logout = try await sandbox.rider(["logout", "--json"], environment: environment)
            #expect(logout.status == 0, "\(logout)")
            #expect(try Self.json(logout)["revoked_on_server"] as? Bool == true, "\(logout)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("with only the base URL nothing is discovered, as before")
    func baseURLOnlyAsksNoMetadata() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let login = try await sandbox.loginAsDemo("--verbose")
            #expect(login.status == 0, "\(login)")
            #expect(!login.errorLines.contains { $0.contains(".well-known") }, "\(login)")
            let show = try await sandbox.rider("provider", "show")
            #expect(show.status == 10 && show.stderr.contains("no issuer"), "\(show)")
            #expect(await server.store.stats().passwordGrants == 1)
        }
    }

    @Test("an issuer spelled otherwise than the provider's own is refused (exit 10), nothing is kept, no password is sent")
    func issuerMismatch() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let spelledOtherwise = "http://localhost:\(server.baseURL.port ?? 0)"
            let environment = ["RIDER_BASE_URL": "", "RIDER_ISSUER": spelledOtherwise]
            let login = try await sandbox.rider(["login", "--email", Demo.email, "--password-stdin"],
                                                environment: environment, stdin: Demo.password + "\n")
            #expect(login.status == 10, "\(login)")
            #expect(login.stderr.contains(server.baseURL.absoluteString) && login.stderr.contains("RFC 8414"), "\(login)")
            #expect(await server.store.stats().passwordGrants == 0)
            let cache = sandbox.root.appendingPathComponent("home/.cache/rider")
            let kept = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.lastPathComponent == "provider.json" } ?? []
            #expect(kept.isEmpty)
        }
    }
}

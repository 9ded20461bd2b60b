import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RiderReferenceServer
import Testing
import TestSupport

/// `rider login --web` against a provider that requires both pushed authorization requests
/// (RFC 9126) and DPoP (RFC 9449), as FAPI 2.0 does: the page opens with a `request_uri` alone,
/// a real browser (headless Chromium) signs in, and the session rider keeps is bound to its key.
@Suite("rider CLI: a browser sign-in where PAR and DPoP are required", .serialized)
struct SenderConstrainedSignInTests {
    static var configuration: ReferenceServerConfiguration {
        var configuration = DeviceSignInTests.configuration
        configuration.dpop = .required
        configuration.pushedAuthorization = .required
        return configuration
    }

    @Test("the request is pushed and the code bound to the session's key; whoami, refresh and logout work; the copied token is refused alone")
    func pushedAndBound() async throws {
        try await withSandboxedReferenceServer(Self.configuration) { server, sandbox in
            let (environment, opened) = try BrowserSignInTests.environment(server, sandbox)
            let (run, page) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--web"], environment: environment, opened: opened) { start in
                let page = try await BrowserSignInTests.providerPage(behind: start)
                _ = try await BrowserSignInTests.answerInBrowser(page, button: "approve")
                return page
            }
            #expect(run.status == 0, "\(run)")
            let query = URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems ?? []
            #expect(query.map(\.name).sorted() == ["client_id", "request_uri"],
                    "the provider's page is opened with the pushed request's reference alone: \(page)")

            let show = try await sandbox.rider(["session", "show"], environment: environment)
            #expect(show.stdout.contains("bound to a DPoP key"), "\(show)")
            let whoami = try await sandbox.rider(["whoami"], environment: environment)
            #expect(whoami.status == 0 && whoami.stdout.contains(Demo.email), "\(whoami)")
            let refresh = try await sandbox.rider(["session", "refresh"], environment: environment)
            #expect(refresh.status == 0, "\(refresh)")
            #expect(await server.store.stats().refreshGrants == 1)

            let token = String(try await sandbox.rider(["session", "token"], environment: environment).stdout.dropLast())
            #expect(await server.store.dpopThumbprint(of: token) != nil, "the server bound the refreshed token")
            let asBearer = try await DPoPSessionTests.get(server.baseURL.appendingPathComponent("auth/me"),
                                                          headers: ["Authorization": "Bearer \(token)"])
            #expect(asBearer.status == 401, "a bound token copied out of the session is refused on its own")

            let logout = try await sandbox.rider(["logout"], environment: environment)
            #expect(logout.status == 0, "\(logout)")
            #expect(await server.store.dpopThumbprint(of: token) == nil, "logout revoked the bound token")
        }
    }

    @Test("told to push, against a provider with no endpoint for it: refused before any browser opens, nothing stored")
    func pushRequiredWithoutEndpoint() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            var (environment, _) = try BrowserSignInTests.environment(server, sandbox)
            environment["RIDER_PAR"] = "required"
            let run = try await sandbox.rider(["login", "--web", "--timeout", "5"], environment: environment)
            #expect(run.status != 0, "\(run)")
            #expect(run.stderr.contains("pushed_authorization_request_endpoint"), "\(run)")
            #expect(await server.store.stats().authorizationCodeGrants == 0)
            let show = try await sandbox.rider(["session", "show"], environment: environment)
            #expect(show.status == 4, "\(show)")
        }
    }

    /// A P-256 key pair made by openssl: the private key written 0600 in a folder of its own
    /// (0700) under `folder`; returns its path and the public key's PEM.
    static func clientKey(in folder: URL, mode: Int = 0o600) throws -> (file: URL, publicPEM: String) {
        let keys = folder.appendingPathComponent("client-key", isDirectory: true)
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let file = keys.appendingPathComponent("rider-key-client.pem")
        func openssl(_ arguments: [String]) throws -> Data {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            let output = UninheritedFiles.pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw DirectAPI.Failure(description: "openssl \(arguments) failed") }
            return data
        }
        let key = try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
        guard FileManager.default.createFile(atPath: file.path, contents: key, attributes: [.posixPermissions: mode]) else {
            throw DirectAPI.Failure(description: "could not write \(file.path)")
        }
        let publicPEM = String(decoding: try openssl(["pkey", "-in", file.path, "-pubout"]), as: UTF8.self)
        return (file, publicPEM)
    }

    @Test("FAPI 2.0's client side at once: private_key_jwt on the push and the code exchange, PAR and DPoP required; the key file's mode is checked")
    func privateKeyJWT() async throws {
        var configuration = Self.configuration
        let sandbox = try Sandbox(server: nil)
        let (keyFile, publicPEM) = try Self.clientKey(in: sandbox.root)
        configuration.clientPublicKeyPEM = publicPEM
        try await withSandboxedReferenceServer(configuration) { server, sandbox in
            var (environment, opened) = try BrowserSignInTests.environment(server, sandbox)
            environment["RIDER_CLIENT_ID"] = KeyOAuthClient.id
            environment["RIDER_CLIENT_KEY_FILE"] = keyFile.path
            let (run, _) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--web"], environment: environment, opened: opened) { start in
                let page = try await BrowserSignInTests.providerPage(behind: start)
                try await WebDriver.withBrowser { browser in
                    try await browser.open(page)
                    #expect(try await browser.waitFor("#client") == KeyOAuthClient.id)
                    try await browser.type(Demo.email, into: "email")
                    try await browser.type(Demo.password, into: "password")
                    try await browser.click("approve")
                    _ = try await browser.waitFor("#title")
                }
            }
            #expect(run.status == 0, "\(run)")
            let show = try await sandbox.rider(["session", "show"], environment: environment)
            #expect(show.stdout.contains("bound to a DPoP key"), "\(show)")
            #expect(!show.stdout.contains("PRIVATE KEY") && !run.stderr.contains("PRIVATE KEY"))

            // The same file, readable by others: refused before anything is sent, naming the file.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
            let refused = try await sandbox.rider(["session", "refresh"], environment: environment)
            #expect(refused.status != 0, "\(refused)")
            #expect(refused.stderr.contains(keyFile.path), "\(refused)")
        }
    }

    @Test("rider login --client-credentials: the client's own DPoP-bound session, renewed by asking again when the server refuses its token; logout ends it")
    func clientCredentials() async throws {
        var configuration = DPoPSessionTests.configuration
        configuration.enableTestHooks = true
        try await withSandboxedReferenceServer(configuration) { server, sandbox in
            let environment = ["RIDER_CLIENT_ID": StandardOAuthClient.id, "RIDER_CLIENT_SECRET": StandardOAuthClient.secret,
                               "RIDER_DPOP": "required"]
            let login = try await sandbox.rider(["login", "--client-credentials"], environment: environment)
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout.contains(StandardOAuthClient.id), "\(login)")
            let show = try await sandbox.rider(["session", "show"], environment: environment)
            #expect(show.stdout.contains("bound to a DPoP key"), "\(show)")
            let whoami = try await sandbox.rider(["whoami"], environment: environment)
            #expect(whoami.stdout.contains("rider-standard-client@clients.invalid"), "\(whoami)")

            await server.store.expireAccessTokens()
            let again = try await sandbox.rider(["whoami"], environment: environment)
            #expect(again.status == 0, "renewed by a new client credentials grant: \(again)")
            #expect(await server.store.stats().refreshGrants == 0, "never a refresh grant: there is no refresh token")

            let logout = try await sandbox.rider(["logout"], environment: environment)
            #expect(logout.status == 0, "\(logout)")
            #expect(try await sandbox.rider(["whoami"], environment: environment).status == 4)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("a public client cannot sign in as itself: a clear refusal naming what it needs, nothing sent or stored")
    func clientCredentialsNeedAConfidentialClient() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let run = try await sandbox.rider(["login", "--client-credentials"], environment: ["RIDER_CLIENT_ID": "rider-cli"])
            #expect(run.status != 0, "\(run)")
            #expect(run.stderr.contains("client secret or a private key"), "\(run)")
            #expect(await server.store.stats().failedTokenRequests == 0)
        }
    }
}

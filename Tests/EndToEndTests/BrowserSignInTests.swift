import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RiderReferenceServer
import Testing

/// `rider login --web` as a person uses it: rider waits on its loopback redirect while the
/// provider's page is filled in by a real browser (headless Chromium through WebDriver), which
/// the provider then sends back to rider.
@Suite("rider CLI: browser sign-in in headless Chromium", .serialized)
struct BrowserSignInTests {
    /// The issuer-only environment with the noting `$BROWSER` (``DeviceSignInTests/issuerOnly``)
    /// and the public client's id.
    static func environment(_ server: RunningReferenceServer, _ sandbox: Sandbox) throws
        -> (environment: [String: String], opened: URL) {
        var (environment, opened) = try DeviceSignInTests.issuerOnly(server, browser: sandbox)
        environment["RIDER_CLIENT_ID"] = PublicOAuthClient.id
        return (environment, opened)
    }

    /// Signs in on the page `page` and presses `button` (`approve` or `deny`); returns the
    /// address and the heading of the page rider's listener answered with.
    static func answerInBrowser(_ page: URL, button: String) async throws -> (url: String, heading: String) {
        try await WebDriver.withBrowser { browser in
            try await browser.open(page)
            #expect(try await browser.waitFor("#client") == PublicOAuthClient.id)
            try await browser.type(Demo.email, into: "email")
            try await browser.type(Demo.password, into: "password")
            try await browser.click(button)
            let heading = try await browser.waitFor("#title")
            return (try await browser.currentURL(), heading)
        }
    }

    /// The person's part without a browser: the page's form posted as a browser posts it, and
    /// the redirect back to rider's loopback followed (URLSession follows the 303). Returns the
    /// text of the page rider answered with.
    static func answerByForm(_ page: URL, server: RunningReferenceServer, action: String = "approve") async throws -> String {
        let (html, _) = try await URLSession.shared.data(from: page)
        let text = String(decoding: html, as: UTF8.self)
        guard let request = text.firstMatch(of: /name="request" value="([^"]+)"/)?.1 else {
            throw DirectAPI.Failure(description: "no sign-in form at \(page): \(text)")
        }
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "request", value: String(request)), URLQueryItem(name: "email", value: Demo.email),
                           URLQueryItem(name: "password", value: Demo.password), URLQueryItem(name: "action", value: action)]
        var post = URLRequest(url: server.baseURL.appendingPathComponent("oauth2/authorize"))
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data((form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
        let (answer, _) = try await URLSession.shared.data(for: post)
        return String(decoding: answer, as: UTF8.self)
    }

    /// The environment for OpenID Connect sign-ins: `openid` in the scope.
    static func openIDEnvironment(_ server: RunningReferenceServer, _ sandbox: Sandbox) throws
        -> (environment: [String: String], opened: URL) {
        var (environment, opened) = try environment(server, sandbox)
        environment["RIDER_SCOPE"] = "openid email"
        return (environment, opened)
    }

    static var hooked: ReferenceServerConfiguration {
        var configuration = DeviceSignInTests.configuration
        configuration.enableTestHooks = true
        return configuration
    }

    @Test("with openid in the scope the account is the verified id_token's subject; after a key rotation the new key is fetched and the next sign-in verifies")
    func openIDConnect() async throws {
        try await withSandboxedReferenceServer(Self.hooked) { server, sandbox in
            let (environment, opened) = try Self.openIDEnvironment(server, sandbox)
            for round in 0..<2 {
                try? FileManager.default.removeItem(at: opened)
                let (run, answer) = try await DeviceSignInTests.signingIn(
                    sandbox, ["login", "--web"], environment: environment, opened: opened) { page in
                    #expect(URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?
                        .contains { $0.name == "nonce" } == true)
                    return try await Self.answerByForm(page, server: server)
                }
                #expect(answer.contains("Signed in"))
                #expect(run.status == 0, "round \(round): \(run)")
                #expect(run.stdout.contains(Demo.userID), "\(run)")
                _ = try await DirectAPI(baseURL: server.baseURL).send("POST", "/_test/rotate-signing-key")
            }
        }
    }

    @Test("an id_token that fails a check is refused: exit 3, nothing stored, the browser told",
          arguments: ["signature", "audience", "nonce", "expired", "issuer"])
    func spoiledIDToken(fault: String) async throws {
        try await withSandboxedReferenceServer(Self.hooked) { server, sandbox in
            let (environment, opened) = try Self.openIDEnvironment(server, sandbox)
            var hook = URLRequest(url: try #require(URL(string: server.baseURL.absoluteString
                + "/_test/spoil-next-id-token?fault=\(fault)")))
            hook.httpMethod = "POST"
            _ = try await URLSession.shared.data(for: hook)
            let (run, answer) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--web"], environment: environment, opened: opened) { page in
                try await Self.answerByForm(page, server: server)
            }
            #expect(answer.contains("id_token"), "\(answer)")
            #expect(run.status == 3, "\(run)")
            #expect(run.stderr.contains("id_token"), "\(run)")
            #expect(sandbox.sessionFile() == nil, "nothing stored")
        }
    }

    @Test("signed in on the provider's page: the browser comes back to rider's loopback, which says so; the session works; the code never shows in rider's output, even --verbose")
    func approve() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, opened) = try Self.environment(server, sandbox)
            let (run, (page, landed, heading)) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--web", "--verbose"], environment: environment, opened: opened) { page in
                let (landed, heading) = try await Self.answerInBrowser(page, button: "approve")
                return (page, landed, heading)
            }
            #expect(page.path == "/oauth2/authorize")
            #expect(heading == "Signed in")
            #expect(landed.hasPrefix("http://127.0.0.1:"), "\(landed)")
            #expect(run.status == 0, "\(run)")
            let code = try #require(URLComponents(string: landed)?.queryItems?.first { $0.name == "code" }?.value)
            #expect(!run.stdout.contains(code) && !run.stderr.contains(code), "\(run)")
            #expect(run.stderr.contains(page.absoluteString), "the page is printed for a browser opened by hand")

            let whoami = try await sandbox.rider(["whoami"], environment: environment)
            #expect(whoami.status == 0 && whoami.stdout.contains(Demo.email), "\(whoami)")
            #expect(await server.store.stats().authorizationCodeGrants == 1)
        }
    }

    @Test("denied on the provider's page: rider ends its wait with exit 3 and stores nothing; the browser hears why")
    func deny() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, opened) = try Self.environment(server, sandbox)
            let (run, (_, heading)) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--web"], environment: environment, opened: opened) { page in
                try await Self.answerInBrowser(page, button: "deny")
            }
            #expect(heading == "The sign-in did not go through")
            #expect(run.status == 3, "\(run)")
            #expect(run.stderr.contains("declined"), "\(run)")
            #expect(sandbox.sessionFile() == nil, "nothing stored")
        }
    }

    @Test("plain rider login against a provider without the password grant, with a browser at hand, signs in in the browser")
    func chosenWhenPasswordGrantIsOff() async throws {
        var configuration = DeviceSignInTests.configuration
        configuration.passwordGrant = false
        try await withSandboxedReferenceServer(configuration) { server, sandbox in
            let (environment, opened) = try Self.environment(server, sandbox)
            let (run, (page, heading)) = try await DeviceSignInTests.signingIn(
                sandbox, ["login"], environment: environment, opened: opened) { page in
                (page, try await Self.answerInBrowser(page, button: "approve").heading)
            }
            #expect(page.path == "/oauth2/authorize")
            #expect(heading == "Signed in")
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.contains("Signing in with the browser"), "\(run)")
        }
    }

    @Test("plain rider login picks the browser where a password would also do, and says how to use the password")
    func browserOverPassword() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, opened) = try Self.environment(server, sandbox)
            let (run, answer) = try await DeviceSignInTests.signingIn(
                sandbox, ["login"], environment: environment, opened: opened) { page in
                try await Self.answerByForm(page, server: server)
            }
            #expect(answer.contains("Signed in"))
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.contains("pass --email to sign in with a password"), "\(run)")
            #expect(await server.store.stats().passwordGrants == 0)
        }
    }

    @Test("an answer with a forged state reaching the loopback is refused: exit 3, nothing stored, no token request")
    func forgedState() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, opened) = try Self.environment(server, sandbox)
            let (run, answer) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--web"], environment: environment, opened: opened) { page in
                let redirect = try #require(URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?
                    .first { $0.name == "redirect_uri" }?.value)
                let forged = try #require(URL(string: redirect + "?code=stolen&state=forged&iss="
                    + (server.baseURL.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")))
                return try await WebDriver.withBrowser { browser in
                    try await browser.open(forged)
                    return try await browser.waitFor("#message")
                }
            }
            #expect(answer.contains("state does not match"))
            #expect(run.status == 3, "\(run)")
            #expect(sandbox.sessionFile() == nil)
            #expect(await server.store.stats().authorizationCodeGrants == 0)
        }
    }

    @Test("no answer within --timeout: exit 3, nothing stored, the port closed")
    func timeout() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, _) = try Self.environment(server, sandbox)
            let run = try await sandbox.rider(["login", "--web", "--timeout", "1"], environment: environment)
            #expect(run.status == 3, "\(run)")
            #expect(run.stderr.contains("within 1 s"), "\(run)")
            #expect(sandbox.sessionFile() == nil)
        }
    }
}

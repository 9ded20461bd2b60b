import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

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

    /// The provider's page behind rider's one-time address: where it sends a browser, read
    /// without following (which spends the address).
    static func providerPage(behind start: URL) async throws -> URL {
        // As a browser waits (see WebDriver's transport), not the 15 s default.
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: 120))
        defer { Task { await transport.shutdown() } }
        let answer = try await transport.send(HTTPRequest(method: .get, url: start, followsRedirects: false))
        guard answer.status == 303, let location = answer.headers["Location"], let page = URL(string: location) else {
            throw DirectAPI.Failure(description: "the one-time address \(start) answered \(answer.status)")
        }
        return page
    }

    /// The value of `name` in `page`'s query ("" when absent).
    static func query(_ name: String, of page: URL) -> String {
        URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value ?? ""
    }

    /// A request to rider's listener written by hand, so its `Host` can be any name; the status.
    /// On a thread of its own, as a blocking read must not hold one of the concurrency pool's.
    static func raw(_ port: Int, _ target: String, host: String) async -> Int {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: rawOnThisThread(port, target, host: host)) }.start()
        }
    }

    private static func rawOnThisThread(_ port: Int, _ target: String, host: String) -> Int {
        guard let socket = LoopbackSocket.connect(port: UInt16(port)) else { return 0 }
        defer { close(socket) }
        LoopbackSocket.setReceiveTimeout(socket, seconds: 30)
        LoopbackSocket.write(socket, Array("GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8))
        let answer = String(decoding: LoopbackSocket.readToEnd(socket), as: UTF8.self)
        return answer.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
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
            var secrets = SignInSecrets()
            for round in 0..<2 {
                try? FileManager.default.removeItem(at: opened)
                let (run, (answer, challenge)) = try await DeviceSignInTests.signingIn(
                    sandbox, ["login", "--web"], environment: environment, opened: opened) { start in
                    let page = try await Self.providerPage(behind: start)
                    #expect(URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?
                        .contains { $0.name == "nonce" } == true)
                    return (try await Self.answerByForm(page, server: server), Self.query("code_challenge", of: page))
                }
                secrets.codeChallenges.append(challenge)
                #expect(answer.contains("Signed in"))
                #expect(run.status == 0, "round \(round): \(run)")
                #expect(run.stdout.contains(Demo.userID), "\(run)")
                _ = try await DirectAPI(baseURL: server.baseURL).send("POST", "/_test/rotate-signing-key")
            }
            await expectNoSignInSecretsLeaked(from: server, in: sandbox, secrets)
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
            let (run, (answer, challenge)) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--web"], environment: environment, opened: opened) { start in
                let page = try await Self.providerPage(behind: start)
                return (try await Self.answerByForm(page, server: server), Self.query("code_challenge", of: page))
            }
            #expect(answer.contains("id_token"), "\(answer)")
            #expect(run.status == 3, "\(run)")
            #expect(run.stderr.contains("id_token"), "\(run)")
            #expect(sandbox.sessionFile() == nil, "nothing stored")
            // The refused id_token is a JWT: no output or file holds one, nor the tokens or verifier.
            await expectNoSignInSecretsLeaked(from: server, in: sandbox, SignInSecrets(codeChallenges: [challenge]))
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
            #expect(page.host == "127.0.0.1" && page.path.hasPrefix("/start/"), "the browser gets the one-time address")
            #expect(heading == "Signed in")
            #expect(landed.hasPrefix("http://127.0.0.1:"), "\(landed)")
            #expect(run.status == 0, "\(run)")
            let code = try #require(URLComponents(string: landed)?.queryItems?.first { $0.name == "code" }?.value)
            #expect(!run.stdout.contains(code) && !run.stderr.contains(code), "\(run)")
            #expect(run.stderr.contains(page.absoluteString), "the address is printed for a browser opened by hand")
            #expect(!run.stderr.contains("state=") && !run.stderr.contains("code_challenge"), "\(run)")

            let whoami = try await sandbox.rider(["whoami"], environment: environment)
            #expect(whoami.status == 0 && whoami.stdout.contains(Demo.email), "\(whoami)")
            #expect(await server.store.stats().authorizationCodeGrants == 1)
            await expectNoSignInSecretsLeaked(from: server, in: sandbox, SignInSecrets(values: [code]))
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
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("with --json, every line on stderr is a JSON object (the address to open as sign_in); approved, stdout is the result; declined, exit 3 and the error object last",
          arguments: ["approve", "deny"])
    func json(action: String) async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, opened) = try Self.environment(server, sandbox)
            let (run, (start, challenge)) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--web", "--json"], environment: environment, opened: opened) { start in
                let page = try await Self.providerPage(behind: start)
                _ = try await Self.answerByForm(page, server: server, action: action)
                return (start, Self.query("code_challenge", of: page))
            }
            let stderr = try #require(DeviceSignInTests.jsonLines(run.stderr), "a line on stderr is not JSON: \(run)")
            let signIn = try #require(stderr.first?["sign_in"] as? [String: Any], "\(run)")
            #expect(signIn["method"] as? String == "web" && signIn["url"] as? String == start.absoluteString, "\(run)")
            #expect(signIn["opened_in_browser"] as? Bool == true && signIn["paste_answer"] as? Bool == false, "\(run)")
            #expect(signIn["timeout"] as? Int == 300, "\(run)")
            if action == "approve" {
                #expect(run.status == 0, "\(run)")
                let result = try #require(DeviceSignInTests.jsonLines(run.stdout), "\(run)")
                #expect(result.count == 1 && result.first?["user_id"] as? String == Demo.userID, "\(run)")
            } else {
                #expect(run.status == 3, "\(run)")
                #expect(run.stdout.isEmpty, "\(run)")
                #expect((stderr.last?["error"] as? [String: Any])?["code"] as? String == "authorization_denied", "\(run)")
            }
            await expectNoSignInSecretsLeaked(from: server, in: sandbox, SignInSecrets(codeChallenges: [challenge]))
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
            #expect(page.path.hasPrefix("/start/"))
            #expect(heading == "Signed in")
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.contains("Signing in with the browser"), "\(run)")
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
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
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("a forged answer reaching the loopback (another state, or another Host) gets 400 and rider keeps waiting; the person's sign-in then goes through, and only its code is exchanged")
    func forgedAnswerKeepsWaiting() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, opened) = try Self.environment(server, sandbox)
            let (run, (forgedHeading, heading)) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--web"], environment: environment, opened: opened) { page in
                let port = try #require(page.port)
                let iss = server.baseURL.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let forged = try #require(URL(string: "http://127.0.0.1:\(port)/callback?code=stolen&state=forged&iss=\(iss)"))
                let forgedHeading = try await WebDriver.withBrowser { browser in
                    try await browser.open(forged)
                    return try await browser.waitFor("#title")
                }
                // A page on a name of its own that resolves to 127.0.0.1 (DNS rebinding).
                #expect(await Self.raw(port, "/callback?code=stolen&state=forged", host: "rebind.example:\(port)") == 400)
                #expect(await Self.raw(port, page.path, host: "rebind.example:\(port)") == 400)
                return (forgedHeading, try await Self.answerInBrowser(page, button: "approve").heading)
            }
            #expect(forgedHeading == "Not this sign-in's answer")
            #expect(heading == "Signed in")
            #expect(run.status == 0, "\(run)")
            #expect(await server.store.stats().authorizationCodeGrants == 1)
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("the browser is started with the one-time address and nothing else: no state, challenge or nonce in its arguments, no RIDER_* secret in its environment")
    func browserGetsNoSecrets() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            var (environment, opened) = try Self.openIDEnvironment(server, sandbox)
            let (arguments, inherited) = (sandbox.root.appendingPathComponent("browser-arguments.txt"),
                                          sandbox.root.appendingPathComponent("browser-environment.txt"))
            let script = sandbox.root.appendingPathComponent("recording-browser.sh")
            try UninheritedFiles.writeExecutable("""
                #!/bin/sh
                env > '\(inherited.path)'
                for a in "$@"; do printf '%s\\n' "$a"; done > '\(arguments.path)'
                printf '%s' "$1" > '\(opened.path).tmp' && mv '\(opened.path).tmp' '\(opened.path)'

                """, to: script)
            environment["BROWSER"] = script.path
            environment["RIDER_CLIENT_SECRET"] = "client-secret-canary"
            let (run, (start, page)) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--web"], environment: environment, opened: opened) { start in
                let page = try await Self.providerPage(behind: start)
                _ = try await Self.answerByForm(page, server: server, action: "deny")
                return (start, page)
            }
            #expect(run.status == 3, "denied: \(run)")

            let argv = try String(contentsOf: arguments, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(argv == [start.absoluteString])
            let query = try #require(URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems)
            for name in ["state", "nonce", "code_challenge"] {
                let value = try #require(query.first { $0.name == name }?.value)
                #expect(!argv.joined().contains(value), "\(name) in the browser's arguments")
                #expect(!run.stderr.contains(value), "\(name) printed")
            }
            let variables = try String(contentsOf: inherited, encoding: .utf8)
            #expect(!variables.contains("RIDER_"), "\(variables)")
            #expect(!variables.contains(Sandbox.vaultPassphrase) && !variables.contains("client-secret-canary"))
        }
    }

    @Test("over SSH, with no browser and no terminal to paste on, rider says how to sign in from another machine")
    func overSSH() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            var (environment, _) = try Self.environment(server, sandbox)
            environment["BROWSER"] = ""
            let local = try await sandbox.rider(["login", "--web", "--timeout", "1"], environment: environment)
            #expect(local.stderr.contains("open this address in a browser on this machine"), "\(local)")
            #expect(!local.stderr.contains("SSH"), "\(local)")

            environment["SSH_CONNECTION"] = "192.0.2.7 51000 192.0.2.1 22"
            let remote = try await sandbox.rider(["login", "--web", "--timeout", "1"], environment: environment)
            #expect(remote.status == 3, "\(remote)")
            #expect(remote.stderr.contains("This is an SSH session") && remote.stderr.contains("`rider login --device`")
                && remote.stderr.contains("paste the browser's last address back"), "\(remote)")
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
            // Nothing listens there any more: no browser rider started holds the socket open either.
            let port = try #require(run.stderr.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\/start\//)
                .flatMap { UInt16($0.1) }, "the one-time address is printed: \(run)")
            let socket = LoopbackSocket.connect(port: port)
            if let socket { close(socket) }
            #expect(socket == nil, "port \(port) still accepts connections after the timeout")
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }
}

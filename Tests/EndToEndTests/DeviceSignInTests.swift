import Foundation
import RiderReferenceServer
import Testing
import TestSupport

/// `rider login --device` against the reference server as an RFC 8628 provider: the person's
/// part is played by a `$BROWSER` that notes the page it was given, and the form on that page
/// posted as a browser would post it.
@Suite("rider CLI: device sign-in")
struct DeviceSignInTests {
    /// The server with a one-second polling interval, so the test waits little.
    static var configuration: ReferenceServerConfiguration {
        var configuration = ReferenceServerConfiguration(seedUsers: 3, accessTokenTTL: .seconds(3600))
        configuration.devicePollInterval = .seconds(1)
        return configuration
    }

    /// A `$BROWSER` that writes the address it is given to a file, then exits.
    static func browser(in sandbox: Sandbox) throws -> (script: URL, opened: URL) {
        let script = sandbox.root.appendingPathComponent("browser.sh")
        let opened = sandbox.root.appendingPathComponent("opened.txt")
        try UninheritedFiles.writeExecutable(
            "#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.path).tmp' && mv '\(opened.path).tmp' '\(opened.path)'\n", to: script)
        return (script, opened)
    }

    /// The sandbox's environment with the issuer in place of the base URL and the noting
    /// `$BROWSER`, and the file it notes the page in.
    static func issuerOnly(_ server: RunningReferenceServer, browser sandbox: Sandbox) throws
        -> (environment: [String: String], opened: URL) {
        let (script, opened) = try browser(in: sandbox)
        return (["RIDER_BASE_URL": "", "RIDER_ISSUER": server.baseURL.absoluteString, "BROWSER": script.path], opened)
    }

    /// The page the browser was asked to open (a hang detector, not a speed limit).
    static func openedPage(_ file: URL) async throws -> URL {
        for _ in 0..<1200 {
            if let text = try? String(contentsOf: file, encoding: .utf8), let url = URL(string: text) { return url }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw DirectAPI.Failure(description: "rider never opened the page")
    }

    /// Runs `rider arguments` while `person` answers the page it asked the noting `$BROWSER` to
    /// open (noted in `opened`): the person's part of every sign-in test.
    /// - Returns: the run, and what `person` returned.
    static func signingIn<Answer>(_ sandbox: Sandbox, _ arguments: [String], environment: [String: String],
                                  opened: URL, person: (URL) async throws -> Answer) async throws
        -> (run: RiderRun, answer: Answer) {
        let pid = HangReport.ProcessID()
        async let login = sandbox.rider(arguments, environment: environment, started: pid.set)
        let page: URL
        do {
            page = try await openedPage(opened)
        } catch {
            // Where rider is stuck: the programs it started and its threads' stacks now, then
            // what it printed before the watchdog ended it.
            let children = HangReport.children(of: pid.current, orMentioning: sandbox.root.path)
            let stacks = await HangReport.stacks(of: pid.current, scratch: sandbox.root.appendingPathComponent("io"))
            let run = (try? await login).map(String.init(describing:)) ?? "rider did not run"
            throw DirectAPI.Failure(description: "\(error)\n\(run)\n\(children)\n\(stacks)")
        }
        let answer = try await person(page)
        return (try await login, answer)
    }

    /// Answers the page's form the way a person's browser would.
    static func answer(_ page: URL, action: String, server: RunningReferenceServer) async throws -> Int {
        let code = URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "user_code" }?.value ?? ""
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "user_code", value: code), URLQueryItem(name: "email", value: Demo.email),
                           URLQueryItem(name: "password", value: Demo.password), URLQueryItem(name: "action", value: action)]
        let body = (form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let (_, status) = try await DirectAPI(baseURL: server.baseURL).send(
            "POST", "/device", contentType: "application/x-www-form-urlencoded", body: Data(body.utf8))
        return status
    }

    @Test("approved at the page: rider stores the session (no terminal, no password through rider), and it works")
    func approved() async throws {
        try await withSandboxedReferenceServer(Self.configuration) { server, sandbox in
            let (environment, opened) = try Self.issuerOnly(server, browser: sandbox)
            async let login = sandbox.rider(["login", "--device"], environment: environment)

            let page = try await Self.openedPage(opened)
            #expect(page.path == "/device")
            #expect(try await Self.answer(page, action: "approve", server: server) == 200)
            let run = try await login
            #expect(run.status == 0, "\(run)")
            let code = URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?.first?.value ?? "?"
            #expect(run.stderr.contains(code), "the code is shown: \(run)")
            #expect(run.stdout.contains(Demo.userID), "\(run)")

            let whoami = try await sandbox.rider(["whoami"], environment: environment)
            #expect(whoami.status == 0 && whoami.stdout.contains(Demo.email), "\(whoami)")
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("plain rider login against a provider without the password grant signs in with a device code, and says so; --email is refused before any password, naming only --device (no client id for --web)")
    func chosenWhenPasswordGrantIsOff() async throws {
        var configuration = Self.configuration
        configuration.passwordGrant = false
        try await withSandboxedReferenceServer(configuration) { server, sandbox in
            let (environment, opened) = try Self.issuerOnly(server, browser: sandbox)
            async let login = sandbox.rider(["login"], environment: environment)
            #expect(try await Self.answer(try await Self.openedPage(opened), action: "approve", server: server) == 200)
            let run = try await login
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.contains("Signing in with a device code"), "\(run)")

            let withPassword = try await sandbox.rider(["login", "--email", Demo.email, "--password-stdin"],
                                                       environment: environment, stdin: Demo.password + "\n")
            #expect(withPassword.status == 10, "\(withPassword)")
            #expect(withPassword.stderr.contains("rider login --device"), "\(withPassword)")
            #expect(!withPassword.stderr.contains("--web"), "no client id is set, so the browser's would fail: \(withPassword)")
            #expect(await server.store.stats().passwordGrants == 0, "no password reached the server")
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("a password refused where no issuer is set names one step that works, setting the issuer, and that step signs in")
    func passwordRefusedWithoutIssuer() async throws {
        var configuration = Self.configuration
        configuration.passwordGrant = false
        try await withSandboxedReferenceServer(configuration) { server, sandbox in
            let refused = try await sandbox.rider(["login", "--email", Demo.email, "--password-stdin"],
                                                  environment: [:], stdin: Demo.password + "\n")
            #expect(refused.status == 10, "\(refused)")
            #expect(refused.stderr.contains("Set issuer to the provider's address (`rider config set issuer URL` or "
                + "RIDER_ISSUER), then run `rider login`"), "\(refused)")
            #expect(!refused.stderr.contains("--device") && !refused.stderr.contains("--web"),
                    "neither starts without an issuer: \(refused)")

            // The step it names: the issuer set beside the server, plain rider login signs in.
            var (environment, opened) = try Self.issuerOnly(server, browser: sandbox)
            environment["RIDER_BASE_URL"] = nil
            async let login = sandbox.rider(["login"], environment: environment)
            #expect(try await Self.answer(try await Self.openedPage(opened), action: "approve", server: server) == 200)
            let run = try await login
            #expect(run.status == 0, "\(run)")
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("declined at the page: exit 3, nothing stored")
    func declined() async throws {
        try await withSandboxedReferenceServer(Self.configuration) { server, sandbox in
            let (environment, opened) = try Self.issuerOnly(server, browser: sandbox)
            async let login = sandbox.rider(["login", "--device"], environment: environment)
            #expect(try await Self.answer(try await Self.openedPage(opened), action: "deny", server: server) == 200)
            let run = try await login
            #expect(run.status == 3, "\(run)")
            #expect(run.stderr.contains("declined"), "\(run)")
            #expect(sandbox.sessionFile() == nil)
            #expect(try await sandbox.rider(["whoami"], environment: environment).status == 4)
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    /// Each line of `text` as a JSON object, or `nil` where one line is not one.
    static func jsonLines(_ text: String) -> [[String: Any]]? {
        // Every line, an empty one too (only the text's last line break ends nothing).
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Data($0.utf8) }
        if lines.last?.isEmpty == true { lines.removeLast() }
        let objects = lines.compactMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] }
        return objects.count == lines.count ? objects : nil
    }

    @Test("with --json, every line on stderr is a JSON object (the code and page as sign_in), and stdout is the result")
    func approvedWithJSON() async throws {
        try await withSandboxedReferenceServer(Self.configuration) { server, sandbox in
            let (environment, opened) = try Self.issuerOnly(server, browser: sandbox)
            let (run, answer) = try await Self.signingIn(sandbox, ["login", "--device", "--json"], environment: environment,
                                                       opened: opened) { page in
                (page, try await Self.answer(page, action: "approve", server: server))
            }
            let (page, status) = answer
            #expect(status == 200)
            #expect(run.status == 0, "\(run)")
            let stderr = try #require(Self.jsonLines(run.stderr), "a line on stderr is not JSON: \(run)")
            let signIn = try #require(stderr.first?["sign_in"] as? [String: Any], "\(run)")
            let code = URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?
                .first { $0.name == "user_code" }?.value
            #expect(signIn["method"] as? String == "device" && signIn["user_code"] as? String == code, "\(run)")
            #expect(signIn["url"] as? String == page.absoluteString, "\(run)")
            #expect(signIn["verification_uri_complete"] as? String == page.absoluteString, "\(run)")
            #expect((signIn["verification_uri"] as? String).flatMap(URL.init(string:))?.path == "/device", "\(run)")
            #expect(signIn["opened_in_browser"] as? Bool == true && signIn["expires_at"] is String, "\(run)")
            let result = try #require(Self.jsonLines(run.stdout), "\(run)")
            #expect(result.count == 1 && result.first?["user_id"] as? String == Demo.userID, "\(run)")
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("with --json, a code declined at the page ends with exit 3 and every line on stderr a JSON object, the error last")
    func declinedWithJSON() async throws {
        try await withSandboxedReferenceServer(Self.configuration) { server, sandbox in
            let (environment, opened) = try Self.issuerOnly(server, browser: sandbox)
            let (run, status) = try await Self.signingIn(sandbox, ["login", "--device", "--json"], environment: environment,
                                                         opened: opened) { page in
                try await Self.answer(page, action: "deny", server: server)
            }
            #expect(status == 200)
            #expect(run.status == 3, "\(run)")
            let stderr = try #require(Self.jsonLines(run.stderr), "a line on stderr is not JSON: \(run)")
            #expect(stderr.first?["sign_in"] != nil, "\(run)")
            #expect((stderr.last?["error"] as? [String: Any])?["code"] as? String == "authorization_denied", "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            #expect(sandbox.sessionFile() == nil)
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("with --json, a sign-in ended by SIGTERM ends by that signal, every line on stderr a JSON object, the cancelled error last")
    func terminatedWithJSON() async throws {
        try await withSandboxedReferenceServer(Self.configuration) { server, sandbox in
            let (environment, opened) = try Self.issuerOnly(server, browser: sandbox)
            let pid = HangReport.ProcessID()
            async let login = sandbox.rider(["login", "--device", "--json"], environment: environment, started: pid.set)
            _ = try await Self.openedPage(opened)
            // The wait is under way once rider has polled for the tokens (answered "pending");
            // a hang detector, not a speed limit.
            var waited = 0
            while await server.store.stats().failedTokenRequests == 0, waited < 1200 {
                try await Task.sleep(for: .milliseconds(50))
                waited += 1
            }
            #expect(await server.store.stats().failedTokenRequests > 0, "rider never polled")
            kill(try #require(pid.current), SIGTERM)
            let run = try await login
            #expect(run.status == SIGTERM, "ended by the signal: \(run)")
            let stderr = try #require(Self.jsonLines(run.stderr), "a line on stderr is not JSON: \(run)")
            #expect(stderr.first?["sign_in"] != nil, "\(run)")
            let error = stderr.last?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "cancelled", "\(run)")
            #expect((error?["message"] as? String)?.contains("nothing was stored") == true, "\(run)")
            #expect(run.stdout.isEmpty && sandbox.sessionFile() == nil, "\(run)")
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("--device with --email, or --no-browser alone, is a usage error")
    func usage() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        #expect(try await sandbox.rider("login", "--device", "--email", Demo.email).status == 2)
        #expect(try await sandbox.rider("login", "--no-browser").status == 2)
    }
}

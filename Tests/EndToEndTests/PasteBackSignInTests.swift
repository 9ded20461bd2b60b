import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RiderKit
import RiderReferenceServer
import Testing

/// `rider login --web` where no browser can be opened (over SSH, in a container), on a real
/// terminal (#33 item 1): rider prints the provider's page, the person signs in there on another
/// machine, and pastes the address that browser ended on — which it could not load — back.
@Suite("rider CLI: paste the redirect back, on a terminal")
struct PasteBackSignInTests {
    static let tmux = "/usr/bin/tmux"

    /// The provider's page as rider printed it: the lines between the two sentences around it,
    /// joined (the terminal wraps it at 120 columns).
    static func printedPage(on screen: String) throws -> URL {
        guard let start = screen.range(of: "on this machine or any other:"),
              let end = screen.range(of: "When the browser ends", range: start.upperBound..<screen.endIndex),
              let page = URL(string: screen[start.upperBound..<end.lowerBound].filter { !$0.isWhitespace }) else {
            throw DirectAPI.Failure(description: "no page printed on:\n\(screen)")
        }
        return page
    }

    /// The person's part on the other machine: the provider's form signed in and approved, and
    /// the address the browser was sent back to (which it could not load), without following it.
    static func redirectAfterSigningIn(at page: URL, server: RunningReferenceServer) async throws -> URL {
        let (html, _) = try await URLSession.shared.data(from: page)
        let text = String(decoding: html, as: UTF8.self)
        guard let request = text.firstMatch(of: /name="request" value="([^"]+)"/)?.1 else {
            throw DirectAPI.Failure(description: "no sign-in form at \(page): \(text)")
        }
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "request", value: String(request)), URLQueryItem(name: "email", value: Demo.email),
                           URLQueryItem(name: "password", value: Demo.password), URLQueryItem(name: "action", value: "approve")]
        let body = Data((form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
        // The person's browser waits as long as it takes: the whole suite shares 2 cores.
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: 120, proxies: .none))
        defer { Task { await transport.shutdown() } }
        let answer = try await transport.send(HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("oauth2/authorize"),
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: body, followsRedirects: false))
        guard (300..<400).contains(answer.status), let location = answer.headers["Location"],
              let redirect = URL(string: location) else {
            throw DirectAPI.Failure(description: "the provider answered \(answer.status), not a redirect")
        }
        return redirect
    }

    @Test("the pasted address signs in; one with a forged state is refused (exit 3) and nothing is stored; no secret shows",
          .enabled(if: FileManager.default.isExecutableFile(atPath: tmux), "needs \(tmux)"),
          arguments: [false, true])
    func pasteBack(forged: Bool) async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            var (environment, _) = try BrowserSignInTests.environment(server, sandbox)
            environment["BROWSER"] = ""  // and tmux passes no DISPLAY: no browser here
            let terminal = try TerminalSession.start("'\(try RiderProcess.executable().path)' login --web",
                                                     environment: sandbox.environment.merging(environment) { $1 })
            defer { terminal.stop() }
            let screen = try await terminal.waitFor("paste it here")
            #expect(screen.contains("no browser can be opened here"), "\(screen)")
            let page = try Self.printedPage(on: screen)
            let challenge = try #require(URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?
                .first { $0.name == "code_challenge" }?.value)
            var answer = try await Self.redirectAfterSigningIn(at: page, server: server)
            #expect(answer.host == "127.0.0.1", "\(answer)")
            if forged {
                var components = try #require(URLComponents(url: answer, resolvingAgainstBaseURL: false))
                components.queryItems = components.queryItems?.map {
                    $0.name == "state" ? URLQueryItem(name: "state", value: "forged-state-0123456789") : $0
                }
                answer = try #require(components.url)
            }
            try terminal.type(answer.absoluteString)
            let end = try await terminal.waitFor("EXIT=")

            let code = try #require(URLComponents(url: answer, resolvingAgainstBaseURL: false)?.queryItems?
                .first { $0.name == "code" }?.value)
            // The terminal shows the line as it is typed; rider never repeats it.
            let shown = end.replacingOccurrences(of: "\n", with: "").components(separatedBy: code).count - 1
            #expect(shown <= 1, "rider repeated the pasted code:\n\(end)")
            if forged {
                #expect(end.contains("EXIT=3"), "\(end)")
                #expect(sandbox.sessionFile() == nil, "nothing stored")
            } else {
                #expect(end.contains("EXIT=0"), "\(end)")
                #expect(end.contains("Logged in as"), "\(end)")
                #expect(try await sandbox.rider("whoami").status == 0, "the session was stored")
            }
            // The screens are scanned with the sandbox's files, once the line the terminal echoed
            // as it was typed is taken out: rider's own output holds neither the code nor the rest.
            let shownByRider = [screen, end].map {
                $0.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: answer.absoluteString, with: "<pasted>")
            }
            try shownByRider.joined(separator: "\n").write(to: sandbox.root.appendingPathComponent("terminal-screens.txt"),
                                                           atomically: true, encoding: .utf8)
            await expectNoSignInSecretsLeaked(from: server, in: sandbox,
                                              SignInSecrets(values: [code], codeChallenges: [challenge]))
        }
    }
}

import Foundation
import RiderKit

/// The browser sign-in's round trip on loopback with no person in it: RiderKit's listener comes
/// up, the provider's page is fetched and its form posted at once by a scripted "browser", the
/// provider sends it back to the listener, the code is exchanged with PKCE and the id_token is
/// checked against the provider's keys. Against the password sign-in of the same account, the
/// one request the browser flow replaces.
struct SignInScenario {
    var signIns = 30

    static let smoke = SignInScenario(signIns: 2)

    func run(server: ServerProcess) async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "Sign-in",
            floorDescription: "RiderKit's password sign-in of the same account (one token request)")
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))
        defer { Task { await transport.shutdown() } }
        let person = ScriptedPerson(server: server.baseURL, transport: transport)
        var configuration = RiderKit.Configuration(api: try server.api, vault: .memory,
                                                   cache: CacheConfiguration(storage: .memory), transport: transport)
        configuration.api.clientID = "rider-cli"
        configuration.api.scope = "openid email"
        configuration.discovery = try ProviderDiscovery.Configuration(issuer: server.baseURL)
        configuration.userAgent = person
        let rider = try RiderKit.live(configuration: configuration)
        let passwordKit = RiderKit(api: try server.api, transport: transport, vault: InMemoryTokenVault(),
                                   cache: InMemoryUserCache(), clock: SystemClock())

        // One of each first: discovery, the key set and the connection pool are then warm, as for
        // a person who signs in twice.
        _ = try await rider.signInWithBrowser(timeout: 60)
        _ = try await passwordKit.login(Credentials(email: ServerProcess.demoEmail, password: ServerProcess.demoPassword))
        var browser = Measurement(samples: []), password = Measurement(samples: [])
        for _ in 0..<signIns {
            browser.samples.append(try await Measurement.time { _ = try await rider.signInWithBrowser(timeout: 60) })
            password.samples.append(try await Measurement.time {
                _ = try await passwordKit.login(Credentials(email: ServerProcess.demoEmail,
                                                            password: ServerProcess.demoPassword))
            })
        }
        report.rows.append(ReportRow(name: "browser sign-in round trip p50 (listener, page, consent, code + PKCE, id_token)",
                                     riderKit: browser.p50, floor: password.p50, unit: "ms"))
        report.rows.append(ReportRow(name: "browser sign-in round trip p99", riderKit: browser.p99, floor: password.p99,
                                     unit: "ms"))
        report.check("every browser sign-in was stored", try await rider.sessions.currentSession() != nil,
                     "\(signIns + 1) sign-ins")
        return report
    }
}

/// The person's part, done as fast as a program can: RiderKit's own user agent listens for the
/// redirect and makes its one-time address, then instead of a browser process the address is
/// followed to the page, the page fetched, its form posted with the demo account's password, and
/// the provider's redirect followed back to RiderKit's listener.
struct ScriptedPerson: ExternalUserAgent {
    let server: URL
    let transport: AsyncHTTPClientTransport
    /// The listener; its browser is never started (`shows: false`).
    let loopback = LoopbackBrowserUserAgent()

    func beginAuthorization(redirectPath: String) async throws -> any ExternalUserAgentSession {
        Attempt(listening: try await loopback.beginAuthorization(redirectPath: redirectPath), server: server,
                transport: transport)
    }

    func show(_ page: URL) async throws -> Bool { false }

    /// One sign-in: RiderKit's listening session, its page visited by the script.
    struct Attempt: ExternalUserAgentSession {
        let listening: any ExternalUserAgentSession
        let server: URL
        let transport: AsyncHTTPClientTransport

        var redirectURI: URL { listening.redirectURI }

        func present(_ page: URL, shows: Bool, acceptingAnswers isAnswer: @escaping @Sendable (URL) -> Bool)
            async throws -> UserAgentPresentation {
            let offered = try await listening.present(page, shows: false, acceptingAnswers: isAnswer)
            let transport = transport, server = server, url = offered.address
            Task {
                // RiderKit's listener offers a one-time address, which redirects to the provider's
                // page; the bare transport follows no redirect, so the person does.
                let start = try await transport.send(HTTPRequest(method: .get, url: url, followsRedirects: false))
                guard start.status == 303, let location = start.headers["Location"], let provider = URL(string: location)
                else {
                    throw BenchFailure("the one-time address did not lead to the provider (\(start.status))")
                }
                let page = try await transport.send(HTTPRequest(method: .get, url: provider))
                let html = String(decoding: page.body, as: UTF8.self)
                guard let request = html.firstMatch(of: /name="request" value="([^"]+)"/)?.1 else {
                    throw BenchFailure("no sign-in form at \(provider)")
                }
                var form = URLComponents()
                form.queryItems = [URLQueryItem(name: "request", value: String(request)),
                                   URLQueryItem(name: "email", value: ServerProcess.demoEmail),
                                   URLQueryItem(name: "password", value: ServerProcess.demoPassword),
                                   URLQueryItem(name: "action", value: "approve")]
                let body = (form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
                let answer = try await transport.send(HTTPRequest(
                    method: .post, url: server.appendingPathComponent("oauth2/authorize"),
                    headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8),
                    followsRedirects: false))
                guard let location = answer.headers["Location"], let back = URL(string: location) else {
                    throw BenchFailure("the provider did not send the browser back (\(answer.status))")
                }
                _ = try await transport.send(HTTPRequest(method: .get, url: back))
            }
            return UserAgentPresentation(address: url, shown: true)
        }

        func redirect() async throws -> URL { try await listening.redirect() }

        func finish(with page: RedirectPage) async { await listening.finish(with: page) }
    }
}

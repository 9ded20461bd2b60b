import Foundation
import RiderKit
import RiderReferenceServer
import Synchronization
import Testing
import TestSupport

/// A program's own user agent, supplied through the one port: the browser sign-in completes
/// against the reference server with no loopback listener and no browser process, as it does
/// for a program that shows the provider's page in its own web view.
@Suite("Browser sign-in through an embedder's user agent")
struct EmbeddedUserAgentTests {
    /// What a web view does, in process: loads the provider's page, lets the person (here the
    /// test, with the demo account) answer its form, and catches the navigation to the redirect
    /// URI instead of sending it anywhere. Nothing listens at `redirectURI`.
    final class WebViewLikeUserAgent: ExternalUserAgent, ExternalUserAgentSession {
        let redirectURI = URL(string: "http://127.0.0.1:1/callback")!
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))
        private let caught = AsyncThrowingStream<URL, any Error>.makeStream()
        private let presentedPages = Mutex<[URL]>([])
        private let finishedWith = Mutex<[RedirectPage]>([])
        private let begun = Mutex<[String]>([])

        var presented: [URL] { presentedPages.withLock { $0 } }
        var finished: [RedirectPage] { finishedWith.withLock { $0 } }
        var redirectPaths: [String] { begun.withLock { $0 } }

        func beginAuthorization(redirectPath: String) async throws -> any ExternalUserAgentSession {
            begun.withLock { $0.append(redirectPath) }
            return self
        }

        func show(_ page: URL) async throws -> Bool { false }

        func present(_ page: URL, shows: Bool, acceptingAnswers isAnswer: @escaping @Sendable (URL) -> Bool)
            async throws -> UserAgentPresentation {
            presentedPages.withLock { $0.append(page) }
            let (transport, redirectURI, caught) = (transport, redirectURI, caught.continuation)
            Task {
                do {
                    let answer = try await Self.personAnswers(page, through: transport)
                    guard answer.absoluteString.hasPrefix(redirectURI.absoluteString + "?"), isAnswer(answer) else {
                        throw Stop("the provider sent the view elsewhere: \(answer)")
                    }
                    caught.yield(answer)
                } catch {
                    caught.finish(throwing: error)
                }
            }
            // Shown in process: the page itself is the address, and no other process ever sees it.
            return UserAgentPresentation(address: page, shown: true)
        }

        func redirect() async throws -> URL {
            for try await url in caught.stream { return url }
            throw CancellationError()
        }

        func finish(with page: RedirectPage) async {
            finishedWith.withLock { $0.append(page) }
        }

        /// The person's part: the page loaded, its form posted with the demo account's password
        /// and approved; the navigation the provider answers with, not followed.
        static func personAnswers(_ page: URL, through transport: AsyncHTTPClientTransport) async throws -> URL {
            let shown = try await transport.send(HTTPRequest(method: .get, url: page))
            let html = String(decoding: shown.body, as: UTF8.self)
            guard shown.status == 200, let request = html.firstMatch(of: /name="request" value="([^"]+)"/)?.1,
                  let action = URL(string: "/oauth2/authorize", relativeTo: page)?.absoluteURL else {
                throw Stop("no sign-in form at the provider's page (\(shown.status))")
            }
            var form = URLComponents()
            form.queryItems = [URLQueryItem(name: "request", value: String(request)),
                               URLQueryItem(name: "email", value: Credentials.referenceDemo.email),
                               URLQueryItem(name: "password", value: Credentials.referenceDemo.password),
                               URLQueryItem(name: "action", value: "approve")]
            let body = (form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
            let answer = try await transport.send(HTTPRequest(
                method: .post, url: action, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data(body.utf8), followsRedirects: false))
            guard answer.status == 303, let location = answer.headers["Location"], let next = URL(string: location) else {
                throw Stop("the provider did not send the view back (\(answer.status))")
            }
            return next
        }
    }

    /// Why the scripted person could not go on.
    struct Stop: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("an embedder's in-process user agent signs in with code + PKCE and OpenID Connect: its redirect URI, the provider's page shown as it is, the outcome shown there, the session stored")
    func signsInWithoutListenerOrBrowser() async throws {
        try await withReferenceServer { server in
            let agent = WebViewLikeUserAgent()
            var configuration = RiderKit.Configuration(
                api: try APIConfiguration(baseURL: server.baseURL, requestTimeout: 60), vault: .memory,
                cache: CacheConfiguration(storage: .memory), proxies: .none)
            configuration.api.clientID = "rider-cli"
            configuration.api.scope = "openid email"
            configuration.discovery = try ProviderDiscovery.Configuration(issuer: server.baseURL)
            configuration.userAgent = agent
            let rider = try RiderKit.live(configuration: configuration)

            let prompted = Mutex<[SignInWithBrowser.Prompt]>([])
            let session = try await rider.signInWithBrowser(timeout: 60) { prompt in prompted.withLock { $0.append(prompt) } }
            await agent.transport.shutdown()

            #expect(session.identity?.email == Credentials.referenceDemo.email, "the verified id_token's account")
            #expect(try await rider.sessions.currentSession()?.accessToken == session.accessToken)
            let page = try #require(agent.presented.only)
            #expect(page.host == server.baseURL.host && page.port == server.baseURL.port && page.path == "/oauth2/authorize")
            let query = Dictionary((URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems ?? [])
                .map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            #expect(query["redirect_uri"] == agent.redirectURI.absoluteString, "the embedder's redirect URI, not a listener's")
            #expect(query["code_challenge_method"] == "S256")
            #expect(agent.redirectPaths == [SignInWithBrowser.defaultRedirectPath])
            #expect(prompted.withLock { $0.map(\.url) } == [page], "the address the embedder gave")
            #expect(prompted.withLock { $0.map(\.openedInBrowser) } == [true])
            #expect(agent.finished.map(\.succeeded) == [true], "the outcome is shown in the embedder's view, once")
        }
    }
}

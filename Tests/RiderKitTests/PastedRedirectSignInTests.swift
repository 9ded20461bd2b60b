import Foundation
import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Synchronization
import Testing
import TestSupport

/// The browser sign-in from another machine, against the reference server: the page opened
/// elsewhere, the address that browser ended on pasted back, through the paste-back adapter
/// around the real loopback one.
@Suite("Browser sign-in with the answer pasted back")
struct PastedRedirectSignInTests {
    /// Lines the person pastes.
    final class Pasted: Sendable {
        private let stream = AsyncStream<String>.makeStream()

        func type(_ line: String) { stream.continuation.yield(line) }

        /// One reader per sign-in here: the flow reads once, or is cancelled.
        func next() async -> String? {
            for await line in stream.stream { return line }
            return nil
        }
    }

    static func rider(_ server: RunningReferenceServer, pasted: Pasted) throws -> RiderKit {
        var configuration = RiderKit.Configuration(
            api: try APIConfiguration(baseURL: server.baseURL, requestTimeout: 60), vault: .memory,
            cache: CacheConfiguration(storage: .memory), proxies: .none)
        configuration.api.clientID = "rider-cli"
        configuration.api.scope = "openid email"
        configuration.discovery = try ProviderDiscovery.Configuration(issuer: server.baseURL)
        configuration.userAgent = PastedRedirectUserAgent(
            wrapping: LoopbackBrowserUserAgent(environment: ["PATH": "/usr/bin:/bin"]), nextLine: { await pasted.next() })
        return try RiderKit.live(configuration: configuration)
    }

    /// The person, on another machine: opens the page given, signs in, and pastes the address the
    /// browser was sent to (which it could not load), changed by `tamper` first.
    static func personOnAnotherMachine(pasted: Pasted, tamper: @escaping @Sendable (URL) -> String = { $0.absoluteString })
        -> @Sendable (SignInWithBrowser.Prompt) async -> Void {
        { prompt in
            let transport = AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))
            if let answer = try? await EmbeddedUserAgentTests.WebViewLikeUserAgent.personAnswers(prompt.url, through: transport) {
                pasted.type(tamper(answer))
            }
            await transport.shutdown()
        }
    }

    @Test("the pasted address the browser ended on signs in: the provider's page given to open anywhere, the session stored")
    func pastedAnswerSignsIn() async throws {
        try await withReferenceServer { server in
            let pasted = Pasted()
            let rider = try Self.rider(server, pasted: pasted)
            let given = Mutex<[URL]>([])
            let person = Self.personOnAnotherMachine(pasted: pasted)
            let session = try await rider.signInWithBrowser(timeout: 60, opensBrowser: false) { prompt in
                given.withLock { $0.append(prompt.url) }
                await person(prompt)
            }
            #expect(session.identity?.email == Credentials.referenceDemo.email)
            #expect(try await rider.sessions.currentSession()?.accessToken == session.accessToken)
            #expect(given.withLock { $0.map(\.path) } == ["/oauth2/authorize"], "the provider's page, not a loopback address")
        }
    }

    @Test("a pasted answer with another state is refused as a browser's return with it is (untrustedAuthorizationResponse), and nothing is stored")
    func forgedStateRefused() async throws {
        try await withReferenceServer { server in
            let pasted = Pasted()
            let rider = try Self.rider(server, pasted: pasted)
            let person = Self.personOnAnotherMachine(pasted: pasted) { answer in
                answer.absoluteString.replacing(/state=[^&]*/, with: "state=forged")
            }
            let thrown = await #expect(throws: RiderError.self) {
                _ = try await rider.signInWithBrowser(timeout: 90, opensBrowser: false, prompt: person)
            }
            #expect(thrown?.code == .untrustedAuthorizationResponse)
            #expect(thrown?.message.contains("state does not match") == true, "\(String(describing: thrown?.message))")
            #expect(try await rider.sessions.currentSession() == nil)
        }
    }
}

import Foundation
import RiderDomain
import RiderInfrastructure
import Synchronization
import Testing
import TestSupport

/// Lines typed by the test as the person would paste them, one at a time.
final class TypedLines: Sendable {
    private let stream = AsyncStream<String>.makeStream()

    func type(_ line: String) { stream.continuation.yield(line) }
    func end() { stream.continuation.finish() }

    /// The next line; one reader at a time, as the adapter reads.
    func next() async -> String? {
        for await line in stream.stream { return line }
        return nil
    }
}

/// What the adapter said, in order.
final class SaidLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var value: [String] { lines.withLock { $0 } }
}

/// The paste-back adapter around the real loopback one: the answer pasted on the terminal and
/// the browser's return raced, with a real listener and a real HTTP client as the browser.
@Suite("Paste-back user agent")
struct PastedRedirectUserAgentTests {
    static let page = URL(string: "https://id.example.test/authorize?state=s3cret&code_challenge=ch4llenge")!

    static func agent(_ typed: TypedLines, unreadable: @escaping @Sendable (String) -> Void = { _ in })
        -> PastedRedirectUserAgent {
        PastedRedirectUserAgent(wrapping: LoopbackBrowserUserAgent(environment: ["PATH": "/usr/bin:/bin"]),
                                nextLine: { await typed.next() }, onUnreadable: unreadable)
    }

    @Test("the whole address the browser ended on, pasted, is the redirect: the redirect URI with the pasted query; the page to open is the provider's own, for a browser on any machine",
          arguments: ["http://127.0.0.1:1/callback?code=c0de&state=s3cret&iss=https%3A%2F%2Fid.example.test",
                      "  http://127.0.0.1:1/callback?code=c0de&state=s3cret&iss=https%3A%2F%2Fid.example.test#  "])
    func pastedAddress(line: String) async throws {
        let typed = TypedLines()
        let session = try await Self.agent(typed).beginAuthorization(redirectPath: "/callback")
        let presented = try await session.present(Self.page, shows: false, acceptingAnswers: { _ in false })
        #expect(presented.address == Self.page && !presented.shown)
        typed.type(line)
        let redirect = try await session.redirect()
        await session.finish(with: RedirectPage(succeeded: true, title: "t", message: "m"))
        #expect(redirect.absoluteString
            == session.redirectURI.absoluteString + "?code=c0de&state=s3cret&iss=https%3A%2F%2Fid.example.test")
    }

    @Test("only the query, with or without its ?, is enough", arguments: ["code=c0de&state=s3cret", "?code=c0de&state=s3cret",
                                                                            "error=access_denied&state=s3cret"])
    func pastedQuery(line: String) async throws {
        let typed = TypedLines()
        let session = try await Self.agent(typed).beginAuthorization(redirectPath: "/callback")
        _ = try await session.present(Self.page, shows: false, acceptingAnswers: { _ in false })
        typed.type(line)
        let redirect = try await session.redirect()
        await session.finish(with: RedirectPage(succeeded: true, title: "t", message: "m"))
        #expect(redirect.absoluteString == session.redirectURI.absoluteString + "?" + line.drop { $0 == "?" })
    }

    @Test("a line that is not an answer is reported without repeating it, and the wait goes on to the next line")
    func unreadableLine() async throws {
        let typed = TypedLines()
        let said = SaidLines()
        let session = try await Self.agent(typed, unreadable: { said.append($0) })
            .beginAuthorization(redirectPath: "/callback")
        _ = try await session.present(Self.page, shows: false, acceptingAnswers: { _ in false })
        for line in ["c0de-s3cret", "http://127.0.0.1:1/callback", "state=s3cret&c0de=1", "code=c0de&state=<s3cret>", "",
                     "code=c0de&state=s3cret"] { typed.type(line) }
        let redirect = try await session.redirect()
        await session.finish(with: RedirectPage(succeeded: true, title: "t", message: "m"))
        #expect(redirect.query == "code=c0de&state=s3cret")
        let messages = said.value
        #expect(messages.count == 4, "\(messages)")
        #expect(messages.allSatisfy { !$0.contains("c0de") && !$0.contains("s3cret") }, "the pasted text is never repeated")
    }

    @Test("the browser's return to the loopback listener still wins while nothing is pasted, and after input ended")
    func callbackWins() async throws {
        for endsInput in [false, true] {
            let typed = TypedLines()
            if endsInput { typed.end() }
            let client = NIOLoopbackListenerTests.browser()
            let session = try await Self.agent(typed).beginAuthorization(redirectPath: "/callback")
            _ = try await session.present(Self.page, shows: false, acceptingAnswers: { $0.query == "code=c&state=s3cret" })
            let back = try #require(URL(string: session.redirectURI.absoluteString + "?code=c&state=s3cret"))
            let browser = Task { try await NIOLoopbackListenerTests.get(back, client: client) }
            #expect(try await session.redirect() == back)
            await session.finish(with: RedirectPage(succeeded: true, title: "Signed in", message: "m"))
            #expect(try await browser.value.status == 200)
            await client.shutdown()
        }
    }
}

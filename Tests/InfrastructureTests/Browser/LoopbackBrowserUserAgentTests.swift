import Foundation
import RiderDomain
import RiderInfrastructure
import Testing
import TestSupport

/// RiderKit's default user agent: its two halves, the loopback listener and the system browser,
/// put together behind the one port, with a real listener and a recording `$BROWSER`.
@Suite("Loopback browser user agent")
struct LoopbackBrowserUserAgentTests {
    static let page = URL(string: "https://id.example.test/authorize?state=s3cret&code_challenge=ch4llenge")!

    @Test("the browser is started with the listener's one-time address, never the provider's page; that address leads to the page and the redirect comes back through the listener")
    func presentsThroughTheOneTimeAddress() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (script, output) = try SystemBrowserOpenerTests.recordingBrowser(in: directory.url)
        let agent = LoopbackBrowserUserAgent(environment: ["BROWSER": script.path, "PATH": "/usr/bin:/bin"])
        let client = NIOLoopbackListenerTests.browser()

        let session = try await agent.beginAuthorization(redirectPath: "/callback")
        #expect(session.redirectURI.host == "127.0.0.1" && session.redirectURI.path == "/callback")
        let presented = try await session.present(Self.page, shows: true, acceptingAnswers: { $0.query == "code=c&state=s3cret" })
        #expect(presented.shown)
        #expect(presented.address.host == "127.0.0.1" && presented.address.port == session.redirectURI.port)
        #expect(presented.address.path.hasPrefix("/start/"))
        let opened = try await SystemBrowserOpenerTests.opened(output)
        #expect(opened == [presented.address.absoluteString])
        #expect(!opened.joined().contains("s3cret") && !opened.joined().contains("ch4llenge"))

        let start = try await NIOLoopbackListenerTests.get(presented.address, client: client)
        #expect(start.status == 303)
        #expect(start.headers["Location"] == Self.page.absoluteString)
        let back = try #require(URL(string: session.redirectURI.absoluteString + "?code=c&state=s3cret"))
        let browser = Task { try await NIOLoopbackListenerTests.get(back, client: client) }
        #expect(try await session.redirect() == back)
        await session.finish(with: RedirectPage(succeeded: true, title: "Signed in", message: "m"))
        #expect(try await browser.value.status == 200)
        await client.shutdown()
    }

    @Test("shows false starts no browser and still gives the address; show(_:) opens a page that needs no answer as it is")
    func noBrowserAndShow() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (script, output) = try SystemBrowserOpenerTests.recordingBrowser(in: directory.url)
        let agent = LoopbackBrowserUserAgent(environment: ["BROWSER": script.path, "PATH": "/usr/bin:/bin"])

        let session = try await agent.beginAuthorization(redirectPath: "/callback")
        let presented = try await session.present(Self.page, shows: false, acceptingAnswers: { _ in false })
        await session.finish(with: RedirectPage(succeeded: false, title: "t", message: "m"))
        #expect(!presented.shown)
        #expect(presented.address.path.hasPrefix("/start/"))
        #expect(!FileManager.default.fileExists(atPath: output.path), "no browser was started")

        let device = try #require(URL(string: "https://id.example.test/device?user_code=ABCD-EFGH"))
        #expect(try await agent.show(device))
        #expect(try await SystemBrowserOpenerTests.opened(output) == [device.absoluteString])
        #expect(LoopbackBrowserUserAgent(environment: ["PATH": "/usr/bin:/bin"]).canOpenPages == false)
    }
}

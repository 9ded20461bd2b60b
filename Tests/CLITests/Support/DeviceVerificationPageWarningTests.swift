import Foundation
@testable import RiderCLI
import Testing

@Suite("CLI DeviceVerificationPage: a device code page elsewhere than the provider is named")
struct DeviceVerificationPageWarningTests {
    static func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test("the issuer's host, the device endpoint's host and their subdomains are the provider's", arguments: [
        "https://id.example.com/device", "https://ID.Example.COM./activate", "https://login.id.example.com/device",
        "https://auth.example.net/verify?user_code=ABCD-EFGH",
    ])
    func providersOwn(page: String) throws {
        let providers = [try Self.url("https://id.example.com"), try Self.url("https://auth.example.net/oauth/device")]
        #expect(DeviceVerificationPage.unrelatedHosts(of: [try Self.url(page)], providers: providers).isEmpty)
    }

    @Test("another host, a look-alike suffix or a parent domain is unrelated, and the warning names it", arguments: [
        ("https://evil.test/device", "evil.test"), ("https://notid.example.com/device", "notid.example.com"),
        ("https://id.example.com.evil.test/device", "id.example.com.evil.test"), ("https://example.com/device", "example.com"),
    ])
    func unrelated(page: String, host: String) throws {
        let providers = [try Self.url("https://id.example.com"), try Self.url("https://id.example.com/oauth/device")]
        let unrelated = DeviceVerificationPage.unrelatedHosts(of: [try Self.url(page)], providers: providers)
        #expect(unrelated == [host])
        let warning = try #require(DeviceVerificationPage.warning(unrelated: unrelated, providers: providers))
        #expect(warning == "the sign-in page is on \(host), not on the provider's id.example.com: "
            + "enter the code only if you trust that site")
    }

    @Test("the complete page is checked too: one on another host than the plain one is named")
    func completePage() throws {
        let pages = [try Self.url("https://id.example.com/device"), try Self.url("https://evil.test/d?user_code=X")]
        #expect(DeviceVerificationPage.unrelatedHosts(of: pages, providers: [try Self.url("https://id.example.com")])
            == ["evil.test"])
    }

    @Test("with nothing to compare with there is no warning")
    func nothingKnown() throws {
        #expect(DeviceVerificationPage.unrelatedHosts(of: [try Self.url("https://evil.test")], providers: []).isEmpty)
        #expect(DeviceVerificationPage.warning(unrelated: [], providers: []) == nil)
    }
}

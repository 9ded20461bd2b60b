import Foundation
import RiderKit
import RiderKitTesting
import Testing

/// A failing test prints the request it did not expect; what it prints is as safe to share as
/// RiderKit's own output.
@Suite("UnexpectedRequestError")
struct UnexpectedRequestErrorTests {
    static let secrets = ["s3cret-pass", "acc-tok-1", "ref-tok-1", "id-tok-1", "revoked-tok", "client-s3cret",
                          "session=abc123", "Basic dXNlcjpwYXNz"]

    func describe(_ request: HTTPRequest) -> String {
        UnexpectedRequestError(request: request, scriptedRoutes: []).description
    }

    func request(_ path: String, method: HTTPMethod = .post, headers: HTTPHeaders = [:], body: String) throws -> HTTPRequest {
        HTTPRequest(method: method, url: try #require(URL(string: "https://api.example.test" + path)), headers: headers,
                    body: Data(body.utf8))
    }

    @Test("form bodies keep their fields but not the password, tokens or client secret")
    func formBody() throws {
        let text = describe(try request("/auth/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                        body: "grant_type=password&username=ada%40example.com&password=s3cret-pass"
                                            + "&refresh_token=ref-tok-1&token=revoked-tok&token_type_hint=refresh_token"
                                            + "&client_secret=client-s3cret"))

        #expect(text.contains("grant_type=password"))
        #expect(text.contains("username=ada%40example.com"))
        #expect(text.contains("token_type_hint=refresh_token"))
        #expect(text.contains("password=%3Credacted%3E"))
        for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) leaked: \(text)") }
    }

    @Test("JSON bodies keep their members but not passwords or tokens, at any depth")
    func jsonBody() throws {
        let text = describe(try request("/auth/register", headers: ["Content-Type": "application/json"], body: """
            {"email":"grace@example.com","password":"s3cret-pass","nested":{"access_token":"acc-tok-1",
             "list":[{"id_token":"id-tok-1","refresh_token":"ref-tok-1"}]},"display_name":"Grace"}
            """))

        #expect(text.contains(#""email":"grace@example.com""#))
        #expect(text.contains(#""display_name":"Grace""#))
        #expect(text.contains(#""password":"<redacted>""#))
        for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) leaked: \(text)") }
    }

    @Test("credentials headers and cookies are redacted, other headers shown")
    func headers() throws {
        let text = describe(try request("/riders/me", method: .get, headers: [
            "Authorization": "Basic dXNlcjpwYXNz", "Proxy-Authorization": "Bearer acc-tok-1", "cookie": "session=abc123",
            "Accept-Language": "en",
        ], body: ""))

        #expect(text.contains("Accept-Language: en"))
        #expect(text.contains("cookie: <redacted>"))
        for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) leaked: \(text)") }
    }

    @Test("a body that is neither JSON nor a form is shown by its size only")
    func opaqueBody() throws {
        let text = describe(try request("/upload", headers: ["Content-Type": "text/plain"], body: "s3cret-pass"))

        #expect(text.contains("<11 bytes of text/plain>"))
        #expect(!text.contains("s3cret-pass"))
    }
}

import Foundation
import RiderDomain
import Testing

@Suite("HTTPRequest and HTTPMethod")
struct HTTPRequestTests {
    @Test("a request's description leaves out query, headers and body, which may hold secrets")
    func descriptionOmitsSecrets() throws {
        let url = try #require(URL(string: "https://api.example.com/users/search?q=SECRET-query"))
        let request = HTTPRequest(method: .post, url: url, headers: ["Authorization": "Bearer SECRET-token"],
                                  body: Data("password=SECRET-password".utf8))
        #expect(request.description == "POST https://api.example.com/users/search")
        #expect(!String(reflecting: request).contains("SECRET"))
    }

    @Test("methods are upper-cased, and only GET, HEAD, PUT and DELETE are idempotent")
    func methods() {
        #expect(HTTPMethod(rawValue: "patch") == .patch)
        let idempotent = [HTTPMethod.get, .head, .put, .delete, .post, .patch].filter(\.isIdempotent)
        #expect(idempotent == [.get, .head, .put, .delete])
    }

    @Test("a response is a success for 2xx only", arguments: [(199, false), (200, true), (204, true), (299, true), (300, false), (401, false)])
    func success(status: Int, isSuccess: Bool) {
        #expect(HTTPResponse(status: status).isSuccess == isSuccess)
    }

    @Test("only http and https URLs with a host are for an HTTP transport", arguments: [
        ("https://api.example.com/auth/me", true), ("HTTP://127.0.0.1:8080/x", true),
        ("ftp://127.0.0.1/auth/me", false), ("file:///etc/passwd", false), ("https:///no-host", false),
        ("mailto:rider@example.com", false),
    ])
    func httpURL(url: String, sendable: Bool) throws {
        let request = HTTPRequest(method: .get, url: try #require(URL(string: url)))
        #expect(request.hasHTTPURL == sendable)
    }
}

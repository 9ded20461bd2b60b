import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("APIConfiguration")
struct APIConfigurationTests {
    func configuration(_ base: String) throws -> APIConfiguration {
        try APIConfiguration(baseURL: try #require(URL(string: base)))
    }

    @Test("plain http is refused for a host that is not loopback", arguments: [
        "http://api.example.com", "http://10.0.0.1:8080", "http://localhost.example.com", "http://192.168.1.127",
    ])
    func refusesPlainHTTP(base: String) {
        let refusal = #expect(throws: RiderError.self) { try configuration(base) }
        #expect(refusal?.code == .invalidConfiguration && refusal?.localizedDescription.contains("https") == true, "\(String(describing: refusal))")
    }

    @Test("a server URL with a user name or password is refused, and the error never echoes them", arguments: [
        "http://alice:pw-SECRET@127.0.0.1:8080", "https://alice@api.example.com", "https://:pw-SECRET@api.example.com",
    ])
    func refusesUserinfo(base: String) {
        #expect {
            try configuration(base)
        } throws: { error in
            let message = "\(error) \((error as? RiderError)?.localizedDescription ?? "")"
            return message.contains("user name or password") && !message.contains("SECRET") && !message.contains("alice")
        }
    }

    @Test("a host name that merely starts with 127. is not loopback", arguments: [
        "http://127.example.com", "http://127.0.0.1.nip.io", "http://127.evil",
    ])
    func refusesLookalikeLoopback(base: String) {
        let refusal = #expect(throws: RiderError.self) { try configuration(base) }
        #expect(refusal?.code == .invalidConfiguration && refusal?.localizedDescription.contains("https") == true, "\(String(describing: refusal))")
    }

    @Test("plain http is allowed for loopback hosts", arguments: [
        "http://localhost:8080", "http://LOCALHOST", "http://127.0.0.1:8080", "http://127.1.2.3", "http://[::1]:8080",
    ])
    func allowsLoopback(base: String) throws {
        _ = try configuration(base)
    }

    @Test("https is allowed for any host")
    func allowsHTTPS() throws {
        _ = try configuration("https://api.example.com")
    }

    @Test("other schemes and URLs without a host are refused", arguments: [
        "ftp://api.example.com", "file:///tmp/api", "/relative/path", "api.example.com",
    ])
    func refusesOthers(base: String) {
        #expect {
            try configuration(base)
        } throws: { error in
            if let riderError = error as? RiderError, riderError.code == .invalidConfiguration { return true }
            return false
        }
    }

    @Test("paths are appended under the base path prefix", arguments: [
        ("https://h/v1", "/users", "https://h/v1/users"),
        ("https://h/v1/", "/users", "https://h/v1/users"),
        ("https://h/v1", "users", "https://h/v1/users"),
        ("https://h", "/users", "https://h/users"),
        ("http://[::1]:8080/v1", "/users", "http://[::1]:8080/v1/users"),
        ("https://h:8443/api/v2", "/auth/token", "https://h:8443/api/v2/auth/token"),
    ])
    func basePathPrefix(base: String, path: String, expected: String) throws {
        let url = try configuration(base).url(for: path).absoluteString
        #expect(url == expected)
    }

    @Test("query values are percent-encoded, spaces as %20")
    func queryEncoding() throws {
        let url = try configuration("https://h/v1").url(for: "/users/search", query: [("q", "a+b & c/d"), ("page", "1")])
        #expect(url.absoluteString == "https://h/v1/users/search?q=a%2Bb%20%26%20c%2Fd&page=1")
    }

    @Test("an absolute token endpoint on another host is used as it is, and must be https too")
    func absolutePath() throws {
        let config = try configuration("https://h/v1")
        #expect(try config.url(for: "https://login.example.com/oauth/token").absoluteString
                == "https://login.example.com/oauth/token")
        let refusal = #expect(throws: RiderError.self) { try config.url(for: "http://login.example.com/oauth/token") }
        #expect(refusal?.code == .invalidConfiguration, "\(String(describing: refusal))")
    }

    @Test("the origin is the lower-cased scheme, host and port, without path", arguments: [
        ("https://API.Example.com:8443/v1/", "https://api.example.com:8443"),
        ("https://h/v1", "https://h"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://[::1]:8080/v1", "http://[::1]:8080"),
    ])
    func origin(base: String, expected: String) throws {
        let origin = try configuration(base).origin
        #expect(origin == expected)
    }

    @Test("a base path prefix reaches the transport for every request")
    func prefixInRequests() async throws {
        let harness = try UseCaseHarness(configuration: Fixtures.configuration(baseURL: "https://api.example.test/v1"))
        harness.transport.stub(.post, "/v1/auth/token", times: 1, with: .successful(Fixtures.tokenResponse()))
        harness.transport.stub(.get, "/v1/users/u_000002", times: 1, with: .successful(Fixtures.user(id: "u_000002")))

        _ = try await harness.login(Fixtures.credentials)
        _ = try await harness.getUser("u_000002")

        #expect(harness.transport.requests.map(\.url.absoluteString) == [
            "https://api.example.test/v1/auth/token", "https://api.example.test/v1/users/u_000002",
        ])
    }

    @Test("description, debugDescription and dump never contain the client secret")
    func redactsSecret() throws {
        let config = try Fixtures.configuration(clientID: "rider-cli", clientSecret: "SECRET-client")
        for (how, text) in renderings(of: config) {
            #expect(!text.contains("SECRET"), "\(how): \(text)")
        }
    }
}

import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
@testable import RiderCLI
import RiderKit
import Testing

/// `rider provider show --resource` prints what two servers wrote about themselves: shown, never
/// obeyed by the terminal; `--json` keeps it exact.
@Suite("provider show --resource output: the resource's and the server's text made terminal-safe")
struct ProtectedResourceOutputTests {
    private struct Unreachable: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw RiderError.serverUnreachable(reason: "test") }
    }

    private static let hostile = "Files\u{1B}]0;PWNED\u{07}\rFAKE"

    private func discovered() throws -> ProtectedResourceDiscovery.Discovered {
        let issuer = try #require(URL(string: "https://id.example.test"))
        let provider = ProviderDiscovery(configuration: try .init(issuer: issuer), transport: Unreachable(),
                                         cache: InMemoryProviderMetadataCache(), clock: SystemClock())
        let metadata = ProtectedResourceMetadata(resource: "https://api.example.test/mcp",
                                                 authorizationServers: ["https://id.example.test", "https://x\u{1B}[2J.example"],
                                                 scopesSupported: ["files:read"], resourceName: Self.hostile)
        let server = ProviderMetadata(issuer: "https://id.example.test",
                                      endpoints: ProviderEndpoints(token: URL(string: "https://id.example.test/token")),
                                      codeChallengeMethodsSupported: ["S256"])
        let now = Date()
        return ProtectedResourceDiscovery.Discovered(
            metadata: metadata, metadataURL: try #require(URL(string: "https://api.example.test/.well-known/oauth-protected-resource/mcp")),
            location: .challenge, status: 401,
            challenge: AuthenticationChallenge(scheme: "Bearer", parameters: [.init(name: "scope", value: "a\u{1B}[31m")]),
            authorizationServer: .init(metadata: server, storedAt: now, expiresAt: now.addingTimeInterval(60), source: .network),
            provider: provider)
    }

    @Test("the human lines escape every control character the servers sent, and name both documents")
    func humanLines() throws {
        let lines = ProtectedResourceOutput(try discovered(), client: nil, now: Date()).lines
        #expect(!lines.contains { $0.unicodeScalars.contains(where: TerminalSafeText.needsEscaping) }, "\(lines)")
        #expect(lines.contains { $0.contains(#"Files\e]0;PWNED\a\rFAKE"#) }, "\(lines)")
        #expect(lines.contains { $0.contains(#"scope=a\e[31m"#) }, "\(lines)")
        #expect(lines.contains { $0.contains("named by the resource's WWW-Authenticate (HTTP 401)") }, "\(lines)")
        #expect(lines.contains("Authorization server (chosen)"))
    }

    @Test("--json carries the exact text under protected_resource and authorization_server")
    func json() throws {
        let text = try #require(JSONOutput.string(ProtectedResourceOutput(try discovered(), client: nil, now: Date())))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let resource = try #require(object["protected_resource"] as? [String: Any])
        #expect(resource["resource_name"] as? String == Self.hostile)
        #expect(resource["found_at"] as? String == "challenge")
        #expect((resource["challenge"] as? [String: Any])?["scope"] as? String == "a\u{1B}[31m")
        #expect((object["authorization_server"] as? [String: Any])?["issuer"] as? String == "https://id.example.test")
    }

    @Test("the client rider signs in with is shown, never its secret; none yet says rider registers at the first sign-in")
    func client() throws {
        let registered = RegisteredClient(issuer: "https://id.example.test", clientID: "dyn-1", clientSecret: "s3cret",
                                          issuedAt: Date(timeIntervalSince1970: 0), grantTypes: ["authorization_code"],
                                          redirectURIs: ["http://127.0.0.1/callback"], tokenEndpointAuthMethod: "none",
                                          mayReceiveIDTokens: true, origin: .dynamic)
        let output = ProtectedResourceOutput(try discovered(), client: registered, now: Date())
        let text = try #require(JSONOutput.string(output))
        #expect(text.contains(#""client_id":"dyn-1""#) && text.contains(#""origin":"dynamic""#) && !text.contains("s3cret"))
        #expect(output.lines.contains { $0.contains("registered by rider") } && !output.lines.joined().contains("s3cret"))
        let none = ProtectedResourceOutput(try discovered(), client: nil, now: Date()).lines
        #expect(none.contains { $0.contains("none") }, "\(none)")
    }
}

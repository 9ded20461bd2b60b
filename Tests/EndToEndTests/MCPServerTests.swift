import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// An MCP server RiderKit's authors did not write, behind an authorization server they did not
/// write either (`MCPServerRig`: the MCP Python SDK's server and Glewlwyd 2.7.5): what the MCP
/// authorization spec makes a client find from the server's URL alone is there, and rider finds it.
@Suite("MCP: a real OAuth-protected MCP server (the MCP Python SDK behind Glewlwyd)", .serialized)
struct MCPServerTests {
    /// The JSON-RPC initialize an MCP client opens with.
    static let initialize = Data(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"rider-tests","version":"1"}}}"#.utf8)

    /// A POST of `initialize` as an MCP client sends it.
    static func post(_ url: URL, token: String? = nil) async throws -> (status: Int, headers: [String: String], body: Data) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = initialize
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json, text/event-stream", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return (http?.statusCode ?? 0, headers, data)
    }

    static func json(_ url: URL) async throws -> [String: Any] {
        let (data, response) = try await URLSession.shared.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200,
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw DirectAPI.Failure(description: "\(url) did not answer a JSON object")
        }
        return object
    }

    @Test("an initialize without a token gets 401 and a Bearer challenge naming the server's RFC 9728 metadata, which names Glewlwyd; Glewlwyd registers clients")
    func challengeAndMetadata() async throws {
        try await MCPServerRig.with { rig in
            let answer = try await Self.post(rig.url)
            #expect(answer.status == 401)
            let challenge = try #require(answer.headers["www-authenticate"])
            let metadataURL = rig.url.deletingLastPathComponent().absoluteString + ".well-known/oauth-protected-resource/mcp"
            #expect(challenge.hasPrefix("Bearer "), "\(challenge)")
            #expect(challenge.contains(#"error="invalid_token""#), "\(challenge)")
            #expect(challenge.contains(#"resource_metadata="\#(metadataURL)""#), "\(challenge)")

            let metadata = try await Self.json(try #require(URL(string: metadataURL)))
            #expect(metadata["resource"] as? String == rig.url.absoluteString)
            #expect(metadata["authorization_servers"] as? [String] == [rig.issuer.absoluteString])
            #expect(metadata["scopes_supported"] as? [String] == [MCPServerRig.scope])

            let provider = try await Self.json(rig.issuer.appendingPathComponent(".well-known/openid-configuration"))
            #expect(provider["issuer"] as? String == rig.issuer.absoluteString)
            #expect(provider["registration_endpoint"] as? String == rig.issuer.absoluteString + "/register")
            #expect((provider["code_challenge_methods_supported"] as? [String])?.contains("S256") == true)
        }
    }

    @Test("rider provider show --resource URL --mcp finds the metadata from the server's challenge and chooses Glewlwyd, with nothing configured")
    func riderDiscovers() async throws {
        try await MCPServerRig.with { rig in
            let sandbox = try Sandbox(server: nil)
            let environment = ["RIDER_BASE_URL": "", "RIDER_ISSUER": ""]
            let run = try await sandbox.rider(["provider", "show", "--resource", rig.url.absoluteString, "--mcp", "--json"],
                                              environment: environment)
            #expect(run.status == 0, "\(run)\n\(rig.logged().suffix(2000))")
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let resource = try #require(shown["protected_resource"] as? [String: Any])
            #expect(resource["resource"] as? String == rig.url.absoluteString)
            #expect(resource["found_at"] as? String == "challenge", "the 401's resource_metadata named it")
            #expect(resource["status"] as? Int == 401)
            let challenge = resource["challenge"] as? [String: Any]
            #expect(challenge?["scheme"] as? String == "Bearer")
            #expect(challenge?["error"] as? String == "invalid_token")
            #expect(resource["authorization_servers"] as? [String] == [rig.issuer.absoluteString])
            #expect(resource["scopes_supported"] as? [String] == [MCPServerRig.scope])
            let server = try #require(shown["authorization_server"] as? [String: Any])
            #expect(server["issuer"] as? String == rig.issuer.absoluteString, "Glewlwyd is the one chosen")
            #expect((server["endpoints"] as? [String: String])?["token_endpoint"] == rig.issuer.absoluteString + "/token")
            #expect((server["code_challenge_methods_supported"] as? [String])?.contains("S256") == true)

            // Without --mcp rider probes with a GET, which the SDK's endpoint also answers with its challenge.
            let human = try await sandbox.rider(["provider", "show", "--resource", rig.url.absoluteString],
                                                environment: environment)
            #expect(human.status == 0, "\(human)")
            #expect(human.lines.contains { $0.contains("found") && $0.contains("WWW-Authenticate (HTTP 401)") }, "\(human)")
            #expect(human.lines.contains { $0.contains("authorization servers") && $0.hasSuffix(rig.issuer.absoluteString) }, "\(human)")
        }
    }

    @Test("rider login --web --resource URL, given only the MCP server's URL: Glewlwyd found from the 401, a client registered there, and the session's token is for the server, which takes it")
    func riderSignsInToTheServer() async throws {
        try await MCPServerRig.with { rig in
            let sandbox = try Sandbox(server: nil)
            // Glewlwyd compares redirect URIs port and all: the registration names the port rider
            // then listens on (RIDER_LISTEN); the person is played over Glewlwyd's API.
            let listen = "127.0.0.1:\(try LoopbackSocket.closedPort())"
            let environment = ["RIDER_BASE_URL": "", "RIDER_ISSUER": "", "RIDER_LISTEN": listen, "RIDER_DPOP": "off",
                               "BROWSER": PeerProvider.repositoryRoot.appendingPathComponent("scripts/mcp-server/person.sh").path]
            let login = try await sandbox.rider(["login", "--web", "--resource", rig.url.absoluteString], environment: environment)
            #expect(login.status == 0, "\(login)\n--- Glewlwyd ---\n\(rig.provider.logged().suffix(3000))")
            #expect(login.stdout.contains("Logged in as \(DPoPProvider.email)"), "\(login)")
            #expect(rig.provider.logged().contains("registered with redirect_uri [\"http://\(listen)/callback\""),
                    "rider registered itself (RFC 7591) for the port it listened on")

            let printed = try await sandbox.rider(["session", "token", "--resource", rig.url.absoluteString], environment: environment)
            #expect(printed.status == 0, "\(printed)")
            let token = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let claims = try #require(Self.claims(of: token))
            #expect(claims["aud"] as? String == rig.url.absoluteString, "RFC 8707: a token for the MCP server alone")
            #expect((claims["scope"] as? String)?.split(separator: " ").contains("mcp:tools") == true,
                    "the scope its metadata lists")

            let answer = try await Self.post(rig.url, token: token)
            #expect(answer.status == 200, "\(rig.logged().suffix(2000))")
            #expect(answer.headers["content-type"]?.hasPrefix("text/event-stream") == true)
        }
    }

    @Test("a DPoP-bound token (RIDER_DPOP=required: Glewlwyd binds it, cnf.jkt) is refused by the server, which takes Bearer tokens only (RFC 9449 §7.2)")
    func boundTokenRefused() async throws {
        try await MCPServerRig.with { rig in
            let sandbox = try Sandbox(server: nil)
            let environment = ["RIDER_BASE_URL": "", "RIDER_ISSUER": "", "RIDER_DPOP": "required",
                               "RIDER_LISTEN": "127.0.0.1:\(try LoopbackSocket.closedPort())",
                               "BROWSER": PeerProvider.repositoryRoot.appendingPathComponent("scripts/mcp-server/person.sh").path]
            let login = try await sandbox.rider(["login", "--web", "--resource", rig.url.absoluteString], environment: environment)
            #expect(login.status == 0, "\(login)\n--- Glewlwyd ---\n\(rig.provider.logged().suffix(3000))")
            let printed = try await sandbox.rider(["session", "token", "--resource", rig.url.absoluteString], environment: environment)
            let token = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let claims = try #require(Self.claims(of: token), "\(printed)")
            #expect(claims["aud"] as? String == rig.url.absoluteString)
            #expect((claims["cnf"] as? [String: Any])?["jkt"] is String, "Glewlwyd bound it to rider's key")

            let answer = try await Self.post(rig.url, token: token)
            #expect(answer.status == 401)
            #expect(rig.logged().contains("refused: a sender-constrained token presented as a Bearer token"), "\(rig.logged())")
        }
    }

    /// The claims of a JWT, unchecked (the server checks them; the test reads what was asked for).
    static func claims(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    @Test("the SDK's own Python client, with a token Glewlwyd issued for the resource to a client it registered, lists and calls the tools over SSE; other tokens are refused")
    func pythonClientEndToEnd() async throws {
        try await MCPServerRig.with { rig in
            // check.py asserts each step itself (scripts/mcp-server/check.py says which).
            let check = try await rig.python("check")
            #expect(check.status == 0, "\(check)\n--- MCP server ---\n\(rig.logged().suffix(2000))\n--- Glewlwyd ---\n\(rig.provider.logged().suffix(2000))")
            #expect(check.stderr.contains("ok: add(2, 3) = 5"), "\(check)")

            // The same token from here: the POST is answered with an event stream.
            let tokens = try await rig.tokens()
            let token = try #require(tokens["access_token"] as? String)
            let answer = try await Self.post(rig.url, token: token)
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"]?.hasPrefix("text/event-stream") == true, "\(answer.headers)")
            #expect(answer.headers["mcp-session-id"]?.isEmpty == false, "streamable HTTP names the session")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("data: "), "an SSE event carries the answer")

            // A token without the scope the tools need: Glewlwyd will not tie it to the resource
            // (its RFC 8707 check ties a resource to a scope), so no such token can exist here.
            let withoutResource = try await rig.python("token", ["openid"])
            #expect(withoutResource.status != 0, "\(withoutResource)")
        }
    }
}

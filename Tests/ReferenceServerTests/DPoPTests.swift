import Foundation
import RiderReferenceServer
import Testing

/// DPoP (RFC 9449) on the reference server: proofs at the token endpoint and the rider API,
/// tokens bound to the proof's key, and each way a proof can be wrong refused.
@Suite("DPoP: proofs checked and tokens bound to their key")
struct DPoPTests {
    static func configuration(_ dpop: DPoPMode) -> ReferenceServerConfiguration {
        ReferenceServerConfiguration(seedUsers: 3, accessTokenTTL: .seconds(3600), dpop: dpop)
    }

    static let passwordGrant = [("grant_type", "password"), ("username", "demo@example.com"), ("password", "rider-demo")]

    /// The token endpoint's address as the router's client reaches it.
    static func url(_ server: TestServer, _ path: String) -> String {
        server.baseURL.absoluteString + path
    }

    /// A password grant carrying `proof` (none when `nil`).
    static func login(_ server: TestServer, proof: String?, path: String = "/auth/token") async throws -> TestResponse {
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        headers["DPoP"] = proof
        return try await server.send("POST", path, headers: headers, body: Data(FormBody.encode(passwordGrant).utf8))
    }

    /// A password grant proven with `key`; fails the test unless the tokens come back bound.
    static func boundLogin(_ server: TestServer, key: ProofKey) async throws -> TokenBody {
        let response = try await login(server, proof: try await key.proof("POST", url(server, "/auth/token")))
        guard response.status == 200 else { throw TestFailure("bound login failed: \(response.status) \(response.text)") }
        let body = try response.decode(TokenBody.self)
        guard body.tokenType == "DPoP" else { throw TestFailure("token_type \(body.tokenType), not DPoP") }
        return body
    }

    /// `GET path` with `Authorization: DPoP <token>` and `proof`.
    static func get(_ server: TestServer, _ path: String, dpop token: String, proof: String?) async throws -> TestResponse {
        var headers = ["Authorization": "DPoP \(token)"]
        headers["DPoP"] = proof
        return try await server.send("GET", path, headers: headers)
    }

    static func tokenError(_ response: TestResponse) throws -> String {
        try response.decode(TokenErrorBody.self).error
    }

    // MARK: Configuration and metadata

    @Test("off by default: no DPoP in the metadata, a DPoP header ignored, bearer tokens as before")
    func offByDefault() async throws {
        #expect(ReferenceServerConfiguration().dpop == .off)
        try await TestServer.with(Self.configuration(.off)) { server in
            let metadata = try await server.get("/.well-known/openid-configuration").object()
            #expect(metadata["dpop_signing_alg_values_supported"] == nil)
            let response = try await Self.login(server, proof: "not even a JWT")
            #expect(response.status == 200)
            #expect(try response.decode(TokenBody.self).tokenType == "Bearer")
        }
    }

    @Test("supported and required advertise ES256 in both discovery documents", arguments: [DPoPMode.supported, .required])
    func advertised(mode: DPoPMode) async throws {
        try await TestServer.with(Self.configuration(mode)) { server in
            for path in ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"] {
                let metadata = try await server.get(path).object()
                #expect(metadata["dpop_signing_alg_values_supported"] as? [String] == ["ES256"], "\(path)")
            }
        }
    }

    @Test("supported: a proven grant gets DPoP tokens, an unproven one bearer tokens that keep working as Bearer")
    func supportedBindsOnlyWithAProof() async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            _ = try await Self.boundLogin(server, key: ProofKey())
            let bearer = try await Self.login(server, proof: nil)
            #expect(bearer.status == 200)
            let token = try bearer.decode(TokenBody.self)
            #expect(token.tokenType == "Bearer")
            #expect(try await server.get("/auth/me", token: token.accessToken).status == 200)
            let asDPoP = try await Self.get(server, "/auth/me", dpop: token.accessToken,
                                            proof: try await ProofKey().proof("GET", Self.url(server, "/auth/me"),
                                                                               accessToken: token.accessToken))
            #expect(asDPoP.status == 401, "an unbound token is a bearer token")
        }
    }

    @Test("required: a token request without a proof is refused with invalid_dpop_proof, at both token endpoints")
    func requiredRefusesUnproven() async throws {
        try await TestServer.with(Self.configuration(.required)) { server in
            let response = try await Self.login(server, proof: nil)
            #expect(response.status == 400)
            #expect(try Self.tokenError(response) == "invalid_dpop_proof")
            let standard = try await server.send(
                "POST", "/oauth2/token",
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data(FormBody.encode(Self.passwordGrant + [("client_id", StandardOAuthClient.id),
                                                                 ("client_secret", StandardOAuthClient.secret)]).utf8))
            #expect(standard.status == 400)
            #expect(try Self.tokenError(standard) == "invalid_dpop_proof")
            #expect(await server.store.issuedTokens().isEmpty)
        }
    }

    // MARK: Proofs at the token endpoint

    enum Flaw: String, CaseIterable, Sendable {
        case wrongHTU, wrongHTM, oldIAT, futureIAT, wrongTyp, privateKeyInHeader, anotherKeysSignature, notAJWT
    }

    @Test("a proof that fails a check is refused with 400 invalid_dpop_proof and no tokens", arguments: Flaw.allCases)
    func tokenEndpointRefusals(flaw: Flaw) async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let key = ProofKey()
            let url = Self.url(server, "/auth/token")
            let proof: String
            switch flaw {
            case .wrongHTU: proof = try await key.proof("POST", Self.url(server, "/oauth2/token"))
            case .wrongHTM: proof = try await key.proof("GET", url)
            case .oldIAT: proof = try await key.proof("POST", url, iat: Date().addingTimeInterval(-120))
            case .futureIAT: proof = try await key.proof("POST", url, iat: Date().addingTimeInterval(120))
            case .wrongTyp: proof = try await key.proof("POST", url, flaws: .init(typ: "JWT"))
            case .privateKeyInHeader: proof = try await key.proof("POST", url, flaws: .init(leaksPrivateKey: true))
            case .anotherKeysSignature: proof = try await key.proof("POST", url, flaws: .init(headerKey: ProofKey()))
            case .notAJWT: proof = "eyJhbGciOiJub25lIn0.e30."
            }
            let response = try await Self.login(server, proof: proof)
            #expect(response.status == 400, "\(response.text)")
            #expect(try Self.tokenError(response) == "invalid_dpop_proof")
            #expect(await server.store.issuedTokens().isEmpty)
        }
    }

    @Test("a proof is taken once: the same jti again is refused as a replay")
    func replayedAtTheTokenEndpoint() async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let proof = try await ProofKey().proof("POST", Self.url(server, "/auth/token"))
            #expect(try await Self.login(server, proof: proof).status == 200)
            let replay = try await Self.login(server, proof: proof)
            #expect(replay.status == 400)
            #expect(try Self.tokenError(replay) == "invalid_dpop_proof")
            #expect(replay.text.contains("jti"))
        }
    }

    @Test("a key the server has seen is checked afresh on every proof: its jwk over another key's signature, or its proof with other claims, is refused")
    func knownKeyStillChecked() async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let key = ProofKey()
            let url = Self.url(server, "/auth/token")
            _ = try await Self.boundLogin(server, key: key)
            let forged = try await ProofKey().proof("POST", url, flaws: .init(headerKey: key))
            let parts = try await key.proof("POST", url).split(separator: ".").map(String.init)
            let otherClaims = try await key.proof("POST", url).split(separator: ".").map(String.init)
            let spliced = [parts[0], otherClaims[1], parts[2]].joined(separator: ".")
            for proof in [forged, spliced] {
                let response = try await Self.login(server, proof: proof)
                #expect(response.status == 400, "\(response.text)")
                #expect(try Self.tokenError(response) == "invalid_dpop_proof")
                #expect(response.text.contains("signature"), "\(response.text)")
            }
            _ = try await Self.boundLogin(server, key: key)
        }
    }

    @Test("a proof's iat within a minute of the server's clock, either way, is taken")
    func iatWindow() async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let key = ProofKey(), url = Self.url(server, "/auth/token")
            for skew in [-45.0, 45] {
                let proof = try await key.proof("POST", url, iat: Date().addingTimeInterval(skew))
                #expect(try await Self.login(server, proof: proof).status == 200, "iat \(skew) s from now")
            }
        }
    }

    // MARK: Bound tokens at the rider API

    @Test("a bound access token is taken as DPoP with a proof of its key, and refused as Bearer")
    func boundAccessToken() async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let key = ProofKey()
            let tokens = try await Self.boundLogin(server, key: key)
            let proof = try await key.proof("GET", Self.url(server, "/auth/me"), accessToken: tokens.accessToken)
            let accepted = try await Self.get(server, "/auth/me", dpop: tokens.accessToken, proof: proof)
            #expect(accepted.status == 200, "\(accepted.text)")
            let asBearer = try await server.get("/auth/me", token: tokens.accessToken)
            #expect(asBearer.status == 401)
            #expect(asBearer.header("WWW-Authenticate")?.hasPrefix("DPoP ") == true)
            // The query is no part of htu.
            let withQuery = try await Self.get(server, "/users?limit=2", dpop: tokens.accessToken,
                                               proof: try await key.proof("GET", Self.url(server, "/users"),
                                                                          accessToken: tokens.accessToken))
            #expect(withQuery.status == 200, "\(withQuery.text)")
        }
    }

    enum APIFlaw: String, CaseIterable, Sendable {
        case noProof, missingATH, wrongATH, anotherKey, wrongHTU, wrongHTM, oldIAT, replayed
    }

    @Test("at the API a bad proof is refused with 401 and WWW-Authenticate: DPoP error=\"invalid_dpop_proof\"",
          arguments: APIFlaw.allCases)
    func apiRefusals(flaw: APIFlaw) async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let key = ProofKey()
            let tokens = try await Self.boundLogin(server, key: key)
            let token = tokens.accessToken, url = Self.url(server, "/auth/me")
            let proof: String?
            switch flaw {
            case .noProof: proof = nil
            case .missingATH: proof = try await key.proof("GET", url)
            case .wrongATH: proof = try await key.proof("GET", url, accessToken: tokens.refreshToken)
            case .anotherKey: proof = try await ProofKey().proof("GET", url, accessToken: token)
            case .wrongHTU: proof = try await key.proof("GET", Self.url(server, "/riders/me"), accessToken: token)
            case .wrongHTM: proof = try await key.proof("POST", url, accessToken: token)
            case .oldIAT: proof = try await key.proof("GET", url, accessToken: token, iat: Date().addingTimeInterval(-120))
            case .replayed:
                let once = try await key.proof("GET", url, accessToken: token)
                #expect(try await Self.get(server, "/auth/me", dpop: token, proof: once).status == 200)
                proof = once
            }
            let response = try await Self.get(server, "/auth/me", dpop: token, proof: proof)
            #expect(response.status == 401, "\(response.text)")
            let challenge = try #require(response.header("WWW-Authenticate"))
            #expect(challenge.hasPrefix("DPoP ") && challenge.contains(#"error="invalid_dpop_proof""#), "\(challenge)")
        }
    }

    // MARK: Bound refresh tokens

    @Test("a bound refresh token is exchanged only with a proof of its key, and stays usable after a refusal")
    func boundRefreshToken() async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let key = ProofKey()
            let tokens = try await Self.boundLogin(server, key: key)
            let url = Self.url(server, "/auth/token")
            func refresh(_ proof: String?) async throws -> TestResponse {
                var headers = ["Content-Type": "application/x-www-form-urlencoded"]
                headers["DPoP"] = proof
                return try await server.send("POST", "/auth/token", headers: headers, body: Data(FormBody.encode(
                    [("grant_type", "refresh_token"), ("refresh_token", tokens.refreshToken)]).utf8))
            }
            for proof in [nil, try await ProofKey().proof("POST", url)] {
                let refused = try await refresh(proof)
                #expect(refused.status == 400)
                #expect(try Self.tokenError(refused) == "invalid_dpop_proof")
            }
            let renewed = try await refresh(try await key.proof("POST", url))
            #expect(renewed.status == 200, "\(renewed.text)")
            let next = try renewed.decode(TokenBody.self)
            #expect(next.tokenType == "DPoP", "the family stays bound to its key")
            let proof = try await key.proof("GET", Self.url(server, "/auth/me"), accessToken: next.accessToken)
            #expect(try await Self.get(server, "/auth/me", dpop: next.accessToken, proof: proof).status == 200)
            #expect(try await server.get("/auth/me", token: next.accessToken).status == 401)
        }
    }

    @Test("the thumbprint the tokens are bound to is the key's RFC 7638 thumbprint")
    func thumbprint() async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let key = ProofKey()
            let tokens = try await Self.boundLogin(server, key: key)
            #expect(try await server.store.dpopThumbprint(of: tokens.accessToken) == key.thumbprint)
        }
    }
}

/// DPoP required of one client while others may still get bearer tokens (FAPI 2.0 per client).
@Suite("DPoP: required per client")
struct DPoPPerClientTests {
    @Test("a client the server requires DPoP of gets invalid_dpop_proof without a proof, and bound tokens with one; others still get bearer tokens")
    func requiredOfOneClient() async throws {
        var configuration = DPoPTests.configuration(.supported)
        configuration.dpopRequiredClients = ["rider-cli"]
        try await TestServer.with(configuration) { server in
            let form = DPoPTests.passwordGrant + [("client_id", "rider-cli")]
            let headers = ["Content-Type": "application/x-www-form-urlencoded"]
            let refused = try await server.send("POST", "/auth/token", headers: headers, body: Data(FormBody.encode(form).utf8))
            #expect(refused.status == 400)
            #expect(try DPoPTests.tokenError(refused) == "invalid_dpop_proof")

            var proven = headers
            proven["DPoP"] = try await ProofKey().proof("POST", DPoPTests.url(server, "/auth/token"))
            let bound = try await server.send("POST", "/auth/token", headers: proven, body: Data(FormBody.encode(form).utf8))
            #expect(try bound.decode(TokenBody.self).tokenType == "DPoP")

            let anonymous = try await DPoPTests.login(server, proof: nil)
            #expect(try anonymous.decode(TokenBody.self).tokenType == "Bearer", "a client not on the list may still use bearer tokens")
        }
    }
}

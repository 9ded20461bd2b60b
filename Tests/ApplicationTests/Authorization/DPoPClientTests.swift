import Foundation
import RiderApplication
import RiderDomain
import RiderKitTesting
import Synchronization
import Testing
import TestSupport

/// DPoP (RFC 9449) from the client's side: which requests carry a proof, what each proof is made
/// for, the nonce dance at the token endpoint and at the API, and the answers refused. The key
/// here writes its proofs as readable text, so each test can say what was proven; real ES256
/// proofs are `DPoPKeyTests`' business.
@Suite("DPoP: sender-constrained sessions, the client's side")
struct DPoPClientTests {
    /// A key whose "proof" spells out what it was made for: `key|method|url|ath|nonce`.
    struct ReadableKey: DPoPKey {
        let name: String
        var publicJWK: [String: String] { ["kty": "EC", "kid": name] }
        var thumbprint: String { "thumb-" + name }
        var privateKeyRepresentation: Data { Data(name.utf8) }
        func proof(method: String, url: URL, accessToken: String?, nonce: String?, at now: Date) async throws -> String {
            [name, method, url.absoluteString, accessToken.map { "ath(\($0))" } ?? "-", nonce ?? "-"].joined(separator: "|")
        }
    }

    /// Hands out `k1`, `k2`, … and restores a key from its name.
    final class Keys: DPoPKeyFactory {
        private let made = Mutex(0)
        func newKey() -> any DPoPKey { ReadableKey(name: "k\(made.withLock { $0 += 1; return $0 })") }
        func key(restoring bytes: Data) throws -> any DPoPKey { ReadableKey(name: String(decoding: bytes, as: UTF8.self)) }
    }

    struct Rig {
        let transport = StubTransport()
        let vault = SpyTokenVault()
        let configuration: APIConfiguration
        let sessions: SessionEngine
        let api: APIClient

        init(dpop: APIConfiguration.DPoPUse = .required) throws {
            var configuration = try Fixtures.configuration()
            configuration.dpop = dpop
            self.configuration = configuration
            sessions = SessionEngine(configuration: configuration, transport: transport, vault: vault,
                                     clock: ManualClock(now: Fixtures.epoch), dpopKeys: Keys())
            api = APIClient(configuration: configuration, pipeline: RequestPipeline(transport: transport, middlewares: [
                AuthorizationMiddleware(sessions: sessions),
            ]))
        }

        var tokenPath: String { configuration.tokenPath }
        var tokenURL: String { Fixtures.baseURL + configuration.tokenPath }

        /// A token endpoint that binds what it issues when the request carried a proof.
        func stubBindingTokenEndpoint(accessToken: String = "access-dpop") {
            transport.stub(.post, tokenPath) { request in
                .successful(Fixtures.tokenResponse(accessToken: accessToken,
                                                   tokenType: request.headers["DPoP"] == nil ? "Bearer" : "DPoP"))
            }
        }
    }

    @Test("a sign-in with DPoP required sends a proof of a new key and stores the session bound to it")
    func boundSignIn() async throws {
        let rig = try Rig()
        rig.stubBindingTokenEndpoint()

        let session = try await rig.sessions.signIn(.password(Fixtures.credentials))

        let request = try #require(rig.transport.requests(.post, rig.tokenPath).only)
        #expect(request.headers["DPoP"] == "k1|POST|\(rig.tokenURL)|-|-", "no ath and no nonce at the token endpoint")
        #expect(session.isSenderConstrained && session.tokenType == "DPoP")
        #expect(await rig.vault.storedSession?.isSenderConstrained == true, "the key is kept with the tokens")
        #expect(!String(describing: session).contains("k1"))
    }

    @Test("a token endpoint's use_dpop_nonce is answered once more with the nonce, which later proofs reuse")
    func tokenEndpointNonce() async throws {
        let rig = try Rig()
        rig.transport.stub(.post, rig.tokenPath, inOrder: [
            .json(["error": "use_dpop_nonce"], status: 400, headers: ["DPoP-Nonce": "n-1"]),
            .successful(Fixtures.tokenResponse(accessToken: "access-dpop", tokenType: "DPoP"), headers: ["DPoP-Nonce": "n-2"]),
        ])

        _ = try await rig.sessions.signIn(.password(Fixtures.credentials))

        let proofs = rig.transport.requests(.post, rig.tokenPath).map { $0.headers["DPoP"] ?? "" }
        #expect(proofs == ["k1|POST|\(rig.tokenURL)|-|-", "k1|POST|\(rig.tokenURL)|-|n-1"])
    }

    @Test("a bound session's requests carry `DPoP <token>` and a proof with ath; the API's nonce demand is met once, without a refresh")
    func resourceRequests() async throws {
        let rig = try Rig()
        rig.stubBindingTokenEndpoint()
        _ = try await rig.sessions.signIn(.password(Fixtures.credentials))
        let riderURL = Fixtures.baseURL + "/riders/me"
        rig.transport.stub(.get, "/riders/me", inOrder: [
            .problem(status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "api-1"]),
            .successful(Fixtures.rider()),
        ])

        _ = try await rig.api.send(API.myRider)

        let sent = rig.transport.requests(.get, "/riders/me")
        #expect(sent.map { $0.headers["Authorization"] } == ["DPoP access-dpop", "DPoP access-dpop"])
        #expect(sent.map { $0.headers["DPoP"] ?? "" } == ["k1|GET|\(riderURL)|ath(access-dpop)|-",
                                                          "k1|GET|\(riderURL)|ath(access-dpop)|api-1"])
        #expect(rig.transport.count(.post, rig.tokenPath) == 1, "a nonce demand is not an expired token")
    }

    @Test("a refresh proves the session's own key, and a bearer answer to it is refused: the session ends")
    func refreshKeepsItsKey() async throws {
        let rig = try Rig()
        rig.transport.stub(.post, rig.tokenPath, inOrder: [
            .successful(Fixtures.tokenResponse(accessToken: "access-dpop", tokenType: "DPoP")),
            .successful(Fixtures.tokenResponse(accessToken: "access-2", tokenType: "DPoP")),
            .successful(Fixtures.tokenResponse(accessToken: "access-3")),
        ])
        rig.transport.stub(.post, rig.configuration.revokePath, with: .status(200))
        _ = try await rig.sessions.signIn(.password(Fixtures.credentials))
        let renewed = try await rig.sessions.refresh()
        #expect(renewed.isSenderConstrained)
        #expect(rig.transport.requests(.post, rig.tokenPath).last?.headers["DPoP"] == "k1|POST|\(rig.tokenURL)|-|-")

        let refusal = await #expect(throws: RiderError.self) { try await rig.sessions.refresh() }
        #expect(refusal?.code == .untrustedAuthorizationResponse)
        #expect(await rig.vault.storedSession == nil)
    }

    @Test("a bearer answer where DPoP is required is refused and nothing is stored; a DPoP token nobody asked for is refused too")
    func refusedAnswers() async throws {
        let required = try Rig()
        required.transport.stub(.post, required.tokenPath, with: .successful(Fixtures.tokenResponse()))
        required.transport.stub(.post, required.configuration.revokePath, with: .status(200))
        let bearer = await #expect(throws: RiderError.self) { try await required.sessions.signIn(.password(Fixtures.credentials)) }
        #expect(bearer?.code == .untrustedAuthorizationResponse)
        #expect(await required.vault.storedSession == nil)

        let off = try Rig(dpop: .off)
        off.transport.stub(.post, off.tokenPath, with: .successful(Fixtures.tokenResponse(tokenType: "DPoP")))
        off.transport.stub(.post, off.configuration.revokePath, with: .status(200))
        let unasked = await #expect(throws: RiderError.self) { try await off.sessions.signIn(.password(Fixtures.credentials)) }
        #expect(unasked?.code == .untrustedAuthorizationResponse)
        #expect(off.transport.requests(.post, off.tokenPath).first?.headers["DPoP"] == nil)
    }
}

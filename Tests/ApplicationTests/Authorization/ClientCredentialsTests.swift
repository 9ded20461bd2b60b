import Foundation
import RiderApplication
import RiderDomain
import RiderKitTesting
import Testing
import TestSupport

/// The client signing in as itself (RFC 6749 §4.4): a flow value like the others, whose session
/// has no refresh token and is renewed by asking again.
@Suite("Client credentials: the client's own session")
struct ClientCredentialsTests {
    struct Rig {
        let transport = StubTransport()
        let clock = ManualClock(now: Fixtures.epoch)
        let vault = SpyTokenVault()
        let configuration: APIConfiguration
        let sessions: SessionEngine

        init(secret: String? = "s3cret", authentication: APIConfiguration.ClientAuthentication = .basic) throws {
            var configuration = try Fixtures.configuration(clientID: "ci-job")
            configuration.clientSecret = secret
            configuration.clientAuthentication = authentication
            self.configuration = configuration
            sessions = SessionEngine(configuration: configuration, transport: transport, vault: vault, clock: clock)
        }
    }

    @Test("the client authenticates and asks for tokens as itself; the session is the client's, with no refresh token, named by the client id")
    func signsIn() async throws {
        let rig = try Rig()
        rig.transport.stub(.post, rig.configuration.tokenPath,
                           with: .successful(Fixtures.tokenResponse(refreshToken: nil, userID: nil, role: nil)))
        let session = try await rig.sessions.signIn(.clientCredentials)
        #expect(session.isClientSession && session.refreshToken == nil)
        #expect(session.userID == UserID("ci-job"))
        #expect(session.identity?.name == "ci-job")
        #expect(await rig.vault.storedSession == session)
        let request = try #require(rig.transport.requests(.post, rig.configuration.tokenPath).only)
        #expect(request.formFields["grant_type"] == "client_credentials")
        #expect(request.headers["Authorization"]?.hasPrefix("Basic ") == true)
        #expect(rig.transport.count(.get, rig.configuration.mePath) == 0, "no person to ask the API about")
    }

    @Test("about to expire, the session is renewed with the client credentials grant, not ended; the new session is still the client's")
    func renewedByAskingAgain() async throws {
        let rig = try Rig()
        rig.transport.stub(.post, rig.configuration.tokenPath, inOrder: [
            .successful(Fixtures.tokenResponse(accessToken: "client-1", expiresIn: 120, refreshToken: nil)),
            .successful(Fixtures.tokenResponse(accessToken: "client-2", expiresIn: 120, refreshToken: nil)),
        ])
        _ = try await rig.sessions.signIn(.clientCredentials)
        rig.clock.advance(by: 100)
        // Still valid for 20 s: handed out as it is, and renewed beside the request.
        #expect(try await rig.sessions.validSession().accessToken == "client-1")
        await rig.sessions.finishRefreshing()
        let renewed = try await rig.sessions.validSession()
        #expect(renewed.accessToken == "client-2")
        #expect(renewed.isClientSession)
        #expect(rig.transport.requests(.post, rig.configuration.tokenPath).map { $0.formFields["grant_type"] }
            == ["client_credentials", "client_credentials"])
        #expect(await rig.vault.storedSession?.accessToken == "client-2")
    }

    @Test("a public client cannot act as itself: refused before anything is sent", arguments: [
        (nil as String?, APIConfiguration.ClientAuthentication.basic), ("s3cret", .none),
    ])
    func publicClientRefused(secret: String?, authentication: APIConfiguration.ClientAuthentication) async throws {
        let rig = try Rig(secret: secret, authentication: authentication)
        let error = await #expect(throws: RiderError.self) { try await rig.sessions.signIn(.clientCredentials) }
        #expect(error?.code == .invalidConfiguration)
        #expect(rig.transport.count(.post, rig.configuration.tokenPath) == 0)
    }

    @Test("the provider's refusal is the client's configuration, not a person's wrong password",
          arguments: [StubReply.tokenError("unauthorized_client"), .tokenError("invalid_client", status: 401), .status(401)])
    func refusal(reply: StubReply) async throws {
        let rig = try Rig()
        rig.transport.stub(.post, rig.configuration.tokenPath, with: reply)
        let error = await #expect(throws: RiderError.self) { try await rig.sessions.signIn(.clientCredentials) }
        #expect(error?.code == .invalidConfiguration)
        #expect(await rig.vault.storedSession == nil)
    }
}

import Foundation
import RiderApplication
import RiderDomain
import RiderKitTesting
import Testing
import TestSupport

/// Every revocation — signing out, deleting the account, tokens issued that cannot be kept — is
/// built and sent by the one `AuthorizationService`, beside the token requests it checks.
@Suite("Revocation: AuthorizationService sends every one")
struct RevocationTests {
    /// The `token_type_hint`s of the revocations `transport` was sent, in order.
    private func hints(_ transport: StubTransport) -> [String?] {
        transport.requests(.post, "/auth/revoke").map { $0.formFields["token_type_hint"] }
    }

    @Test("a session is revoked refresh token first; a refusal stops there and is thrown")
    func stopsAtTheFirstRefusal() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/auth/revoke", times: 1, with: .problem(status: 500))
        let session = try #require(try await harness.sessions.currentSession())

        let error = await #expect(throws: RiderError.self) { try await harness.sessions.service.revoke(session) }

        #expect(error?.status == 500)
        #expect(hints(harness.transport) == ["refresh_token"], "the access token is not sent after a refusal")
    }

    @Test("tokens that will not be kept are revoked best effort: a refusal does not keep the next from being sent")
    func unkeptTokensGoOn() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/auth/revoke", inOrder: [.problem(status: 500), .status(200)])
        let session = try #require(try await harness.sessions.currentSession())

        await harness.sessions.service.revokeUnkept(session)

        #expect(hints(harness.transport) == ["refresh_token", "access_token"])
    }

    @Test("signing out and deleting the account revoke through the session's service, not the API client's pipeline",
          arguments: ["logout", "delete account"])
    func useCasesRevokeThroughTheService(_ useCase: String) async throws {
        let provider = StubTransport()
        let resource = StubTransport()
        let configuration = try Fixtures.configuration()
        let sessions = SessionEngine(configuration: configuration, transport: provider,
                                     vault: SpyTokenVault(session: Fixtures.session()), clock: ManualClock())
        provider.stub(.post, "/auth/revoke", times: 2, with: .status(200))
        resource.stub(.delete, "/riders/me", times: 1, with: .status(204))
        let cache = try UseCaseHarness().cache

        if useCase == "logout" {
            #expect(try await Logout(sessions: sessions, cache: cache)().revokedOnServer)
        } else {
            let api = APIClient(configuration: configuration, transport: resource, sessions: sessions)
            _ = try await DeleteAccount(api: api, sessions: sessions, cache: cache)()
        }

        #expect(hints(provider) == ["refresh_token", "access_token"])
        #expect(resource.requests(.post, "/auth/revoke").isEmpty)
    }
}

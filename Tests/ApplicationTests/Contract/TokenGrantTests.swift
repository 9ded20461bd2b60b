import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("TokenGrant")
struct TokenGrantTests {
    /// A grant as the token endpoint's decoder produces it.
    func grant(_ body: FixtureJSON) throws -> TokenGrant {
        let configuration = try Fixtures.configuration()
        let endpoint = API.refreshGrant("refresh", in: configuration)
        return try endpoint.response(from: HTTPResponse(status: 200, body: body.data))
    }

    @Test("description, debugDescription, String(reflecting:) and dump never contain a token")
    func redaction() throws {
        let grant = try grant(Fixtures.tokenResponse(accessToken: "access-SECRET", refreshToken: "refresh-SECRET"))
        for (how, text) in renderings(of: grant) {
            #expect(!text.contains("SECRET"), "\(how) leaks a token: \(text)")
        }
    }

    @Test("a session from a refresh grant keeps the previous refresh token, user and role when not repeated")
    func keepsPrevious() throws {
        let grant = try grant(Fixtures.tokenResponse(accessToken: "access-2", refreshToken: nil, userID: nil, role: nil))
        let previous = Fixtures.session()
        let now = Fixtures.epoch.addingTimeInterval(100)

        let session = try grant.session(issuedAt: now, userID: nil, previous: previous)

        #expect(session.accessToken == "access-2")
        #expect(session.refreshToken == previous.refreshToken)
        #expect(session.userID == previous.userID)
        #expect(session.role == previous.role)
        #expect(session.issuedAt == now)
        #expect(session.expiresAt == now.addingTimeInterval(3600))
    }

    @Test("a grant that names no user cannot become a session on its own")
    func needsUser() throws {
        let grant = try grant(Fixtures.tokenResponse(userID: nil))
        let refusal = #expect(throws: RiderError.self) { try grant.session(issuedAt: Fixtures.epoch, userID: nil) }
        #expect(refusal?.code == .malformedResponse, "\(String(describing: refusal))")
    }

    @Test("an empty refresh_token or user_id counts as absent")
    func emptyStrings() throws {
        let grant = try grant(Fixtures.tokenResponse(refreshToken: "", userID: ""))
        #expect(grant.refreshToken == nil)
        #expect(grant.userID == nil)
    }
}

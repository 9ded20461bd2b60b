import Foundation
import RiderDomain
import Testing

@Suite("Session")
struct SessionTests {
    let issuedAt = Date(timeIntervalSince1970: 1_735_787_045)

    func session(refreshToken: String? = "refresh-SECRET-2", lifetime: TimeInterval? = 3600) -> Session {
        Session(accessToken: "access-SECRET-1", refreshToken: refreshToken,
                expiresAt: lifetime.map { issuedAt.addingTimeInterval($0) }, userID: "u_000042", role: .admin,
                issuedAt: issuedAt)
    }

    @Test("description, debugDescription, String(reflecting:) and dump never contain a token")
    func redaction() {
        for (how, text) in renderings(of: session()) {
            #expect(!text.contains("SECRET"), "\(how) leaks a token: \(text)")
        }
    }

    @Test("a session inside a collection or optional is still redacted")
    func redactionWhenNested() {
        let nested: [String: Session?] = ["current": session()]
        for (how, text) in renderings(of: nested) {
            #expect(!text.contains("SECRET"), "\(how) leaks a token: \(text)")
        }
    }

    @Test("the description still says whose session it is and whether it can be refreshed")
    func descriptionIsUseful() {
        #expect(session().description.contains("u_000042"))
        #expect(session().description.contains("<redacted>"))
        #expect(session(refreshToken: nil).description.contains("refreshToken: none"))
    }

    @Test("a session without a known expiry is never considered expired")
    func unknownExpiry() {
        let session = session(lifetime: nil)
        #expect(!session.isExpired(at: issuedAt.addingTimeInterval(10 * 365 * 24 * 3600), leeway: 60))
    }

    @Test("expired at and after expiresAt, valid before", arguments: [
        (-1.0, false), (0.0, true), (1.0, true), (3600.0, true),
    ])
    func expiryWithoutLeeway(secondsAfterExpiry: TimeInterval, expired: Bool) {
        let session = session(lifetime: 3600)
        let now = issuedAt.addingTimeInterval(3600 + secondsAfterExpiry)
        #expect(session.isExpired(at: now) == expired)
    }

    @Test("leeway makes a session count as expired that long before it does", arguments: [
        (3540.0, true), (3539.0, false), (3599.0, true),
    ])
    func expiryWithLeeway(secondsAfterIssue: TimeInterval, expired: Bool) {
        let session = session(lifetime: 3600)
        #expect(session.isExpired(at: issuedAt.addingTimeInterval(secondsAfterIssue), leeway: 60) == expired)
    }
}

import Foundation
import RiderDomain

extension APIClient {
    /// Revokes `session` on the server: the refresh token first, which ends the whole grant
    /// (RFC 7009 §2.1), then the access token.
    /// - Throws: the first failure; the access token is then not attempted.
    func revoke(_ session: Session) async throws {
        for revocation in API.revocations(of: session, in: try await authorizationServer.resolvedConfiguration()) {
            try await send(revocation)
        }
    }
}

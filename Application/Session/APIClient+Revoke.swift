import Foundation
import RiderDomain

extension APIClient {
    /// Revokes `session` on the server: the refresh token first, which ends the whole grant
    /// (RFC 7009 §2.1), then the access token.
    /// - Returns: whether the server was told: `false` when the provider has no revocation endpoint.
    /// - Throws: the first failure; the access token is then not attempted.
    @discardableResult
    func revoke(_ session: Session) async throws -> Bool {
        guard let configuration = try await authorizationServer.revocationConfiguration() else { return false }
        for revocation in API.revocations(of: session, in: configuration) {
            try await send(revocation)
        }
        return true
    }
}

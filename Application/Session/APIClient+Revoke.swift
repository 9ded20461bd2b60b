import Foundation
import RiderDomain

extension APIClient {
    /// Revokes `session` on the server: the refresh token first, which ends the whole grant
    /// (RFC 7009 §2.1), then the access token.
    ///
    /// Only to the revocation endpoint the session was issued with
    /// (``AuthorizationServer/revocationConfiguration(for:)``).
    /// - Returns: whether the server was told: `false` when the provider has no revocation endpoint.
    /// - Throws: `RiderError.storage(_:)` when the configured revocation endpoint is not the
    ///   session's (nothing was sent); else the first failure, the access token then not attempted.
    @discardableResult
    func revoke(_ session: Session) async throws -> Bool {
        guard let configuration = try await authorizationServer.revocationConfiguration(for: session) else { return false }
        for (token, hint) in API.revokedTokens(of: session) {
            // Authenticated anew for each: a private_key_jwt assertion is good for one request.
            try await send(API.revoke(token, hint: hint, in: try await authorizationServer.authenticating(configuration)))
        }
        return true
    }
}

import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `GET /admin/stats`: the `/admin` resource's one route, a few counts about the server. It
    /// takes a token issued for `<base URL>/admin` (RFC 8707) or for no resource in particular,
    /// and refuses one for the rider API (`401 invalid_token`); the token must carry
    /// `rider:admin`, which the default sign-in does not ask for — else `403` with
    /// `error="insufficient_scope"` and `scope="rider:admin"` (RFC 6750 §3.1), so a client can
    /// sign in again for it. Any person who approves a sign-in asking for the scope gets it.
    func adminStats(_ request: Request) async throws -> Response {
        let authorized = try await authorize(request, at: .admin)
        let granted = authorized.scope?.split(separator: " ").contains(Substring(ProtectedResource.adminScope)) ?? false
        guard granted else {
            throw insufficientScope(ProtectedResource.adminScope,
                                    detail: "This resource needs the scope \(ProtectedResource.adminScope): sign in again asking for it.",
                                    proven: authorized.proven, metadata: await protectedResourceMetadataURL(.admin))
        }
        let body = AdminStatsBody(users: await store.liveUserCount, registeredClients: await store.registeredClientCount)
        return try Responses.json(body, headers: Self.noStore)
    }
}

/// The contract's `AdminStats`.
struct AdminStatsBody: Encodable, Sendable {
    /// Accounts that exist now (seeded, registered, and clients' own), deleted ones left out.
    let users: Int
    /// Clients registered at `/oauth2/register`.
    let registeredClients: Int

    enum CodingKeys: String, CodingKey {
        case users
        case registeredClients = "registered_clients"
    }
}

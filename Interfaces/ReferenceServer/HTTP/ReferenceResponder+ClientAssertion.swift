import Foundation
import Hummingbird
import JWTKit

/// The client that authenticates with `private_key_jwt` (RFC 7523 §2.2): registered with the
/// public key `rider-server --client-public-key` names, it holds no secret at all.
package enum KeyOAuthClient {
    package static let id = "rider-key-client"
}

extension ReferenceResponder {
    /// The client a request authenticates as: with a `client_assertion`, ``KeyOAuthClient`` once
    /// its assertion checks out; a registered client (RFC 7591) when `client_id` names one and
    /// no secret is sent, since registered clients are public; otherwise as
    /// ``requestingClient(_:form:)`` decides.
    ///
    /// The assertion's checks (RFC 7523 §3): the signature with the registered key; `iss` and
    /// `sub` the client (and `client_id`, when sent, the same); `aud` this server's issuer, a
    /// token endpoint's address or the endpoint it was sent to; `exp` in the future and at most
    /// ten minutes away; a `jti` never seen before (kept until its `exp`).
    /// - Throws: `invalid_client` for an assertion that fails a check, or when no client is
    ///   registered with a key; what ``requestingClient(_:form:)`` throws.
    func authenticatedClient(_ request: Request, form: FormFields) async throws -> String? {
        guard form["client_assertion"] != nil || form["client_assertion_type"] != nil else {
            if let registered = await registeredClient(request, form: form) { return registered.id }
            return try Self.requestingClient(request, form: form)
        }
        func refuse(_ why: String) -> TokenEndpointError {
            TokenEndpointError(code: "invalid_client", description: "client authentication failed: \(why)")
        }
        guard form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
              let assertion = form["client_assertion"] else {
            throw refuse("client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer, "
                + "with client_assertion")
        }
        guard let pem = clientPublicKeyPEM else { throw refuse("no client is registered here with a key") }
        let keys = JWTKeyCollection()
        if let key = try? ES256PublicKey(pem: pem) {
            await keys.add(ecdsa: key)
        } else if let key = try? Insecure.RSA.PublicKey(pem: pem) {
            await keys.add(rsa: key, digestAlgorithm: .sha256)
        }
        let claims: ClientAssertionClaims
        do {
            claims = try await keys.verify(assertion, as: ClientAssertionClaims.self)
        } catch {
            throw refuse("the assertion's signature does not verify with the registered key")
        }
        guard claims.iss == KeyOAuthClient.id, claims.sub == KeyOAuthClient.id,
              form["client_id"].map({ $0 == KeyOAuthClient.id }) ?? true else {
            throw refuse("iss and sub must both be \(KeyOAuthClient.id), the client the key is registered to")
        }
        let origin = await store.origin
        let audiences = Set([origin, origin + "/auth/token", origin + "/oauth2/token", origin + request.uri.path])
        guard claims.aud.value.contains(where: audiences.contains) else {
            throw refuse("aud must be this server's issuer (\(origin)) or the endpoint's address")
        }
        let now = store.now()
        let expiry = Date(timeIntervalSince1970: TimeInterval(claims.exp))
        guard expiry > now else { throw refuse("the assertion has expired") }
        guard expiry <= now.addingTimeInterval(600) else { throw refuse("exp must be at most ten minutes away") }
        guard let jti = claims.jti, !jti.isEmpty else { throw refuse("the assertion has no jti") }
        guard await store.spendClientAssertion(jti, until: expiry) else {
            throw refuse("this assertion was used before (jti replayed)")
        }
        return KeyOAuthClient.id
    }
}

extension ReferenceResponder {
    /// The registered client a request names with `client_id` alone (no secret, no HTTP Basic):
    /// how a public client identifies itself (RFC 6749 §2.3, §3.2.1).
    func registeredClient(_ request: Request, form: FormFields) async -> RegisteredClient? {
        guard let named = form["client_id"], form["client_secret"] == nil,
              !(request.headers[.authorization]?.lowercased().hasPrefix("basic ") ?? false) else { return nil }
        return await store.registeredClient(id: named)
    }

    /// Whether `clientID` (`nil`: the anonymous public client) may use `grantType`: a built-in
    /// client any grant the endpoint takes from it, a registered one those it registered.
    /// - Throws: `unauthorized_client` when a registered client did not register the grant.
    func requireGrant(_ grantType: String, for clientID: String?) async throws(TokenEndpointError) {
        guard let clientID, let registered = await store.registeredClient(id: clientID),
              !registered.allows(grantType) else { return }
        throw .unauthorizedClient("the client \(clientID) did not register the grant type \(grantType)")
    }

    /// Whether `clientID` is a client the authorization endpoint serves: a built-in one, or a
    /// registered one.
    func isAuthorizationClient(_ clientID: String) async -> Bool {
        if [PublicOAuthClient.id, StandardOAuthClient.id, KeyOAuthClient.id].contains(clientID) { return true }
        return await store.registeredClient(id: clientID) != nil
    }

    /// Whether `redirectURI` is one `clientID` may be sent back to: for a built-in client any
    /// loopback `http` one; for a registered client one it registered, ignoring the port
    /// (RFC 8252 §7.3: a native app listens on whatever port is free).
    func acceptsRedirect(_ redirectURI: String, for clientID: String) async -> Bool {
        if let registered = await store.registeredClient(id: clientID) {
            return registered.accepts(redirectURI: redirectURI)
        }
        return Self.isLoopbackRedirect(redirectURI)
    }
}

/// RFC 7523 §3's claims of a client assertion; checked by ``ReferenceResponder/authenticatedClient(_:form:)``.
struct ClientAssertionClaims: JWTPayload {
    let iss: String
    let sub: String
    let aud: AudienceClaim
    let exp: Int
    let jti: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

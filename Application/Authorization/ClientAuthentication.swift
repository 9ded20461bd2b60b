import Foundation
import RiderDomain

/// The client's `private_key_jwt` signer and the clock its assertions are dated by.
package struct ClientAssertions: Sendable {
    /// Signs each assertion with the client's private key.
    package let signer: any ClientAssertionSigner
    /// The device clock, for `iat` and `exp`.
    package let clock: any Clock

    package init(signer: any ClientAssertionSigner, clock: any Clock) {
        self.signer = signer
        self.clock = clock
    }
}

extension AuthorizationServer {
    /// `resolved` ready to authenticate the client on one request to an endpoint that
    /// authenticates it (token, pushed authorization, device authorization, revocation): the
    /// method the configuration names, moved to `client_secret_post` where the provider lists
    /// only that (`token_endpoint_auth_methods_supported`, RFC 8414 §2); for `private_key_jwt`, a
    /// fresh assertion (RFC 7523 §2.2) — one per request, since providers refuse a replayed `jti`.
    /// - Parameter resolved: the configuration with its endpoints resolved (``resolvedConfiguration()``).
    /// - Returns: the configuration to build that one request with.
    /// - Throws: `RiderError.invalidConfiguration(_:)` for `private_key_jwt` without a client id
    ///   or a signer, or when the key cannot sign; what discovery throws.
    package func authenticating(_ resolved: APIConfiguration) async throws -> APIConfiguration {
        var configuration = resolved
        if configuration.clientAuthentication == .basic, configuration.clientSecret != nil,
           let advertised = try await advertisedAuthenticationMethods(),
           !advertised.contains("client_secret_basic"), advertised.contains("client_secret_post") {
            configuration.clientAuthentication = .requestBody
        }
        guard configuration.clientAuthentication == .privateKeyJWT else { return configuration }
        guard let clientID = configuration.clientID, !clientID.isEmpty, let clientAssertions else {
            throw RiderError.invalidConfiguration("private_key_jwt client authentication needs the client id and the "
                + "client's private key, and this program has " + (configuration.clientID == nil ? "no client id" : "no key"))
        }
        let audience: String
        if configuration.clientAssertionAudience == .issuer, let discovery {
            // Exactly as the provider spells itself (RFC 8414 §3.3 made the two equal).
            audience = (try? await discovery.metadata().metadata.issuer) ?? discovery.configuration.issuer.absoluteString
        } else {
            audience = try configuration.url(for: configuration.tokenPath).absoluteString
        }
        configuration.clientAssertion = try await clientAssertions.signer.assertion(
            clientID: clientID, audience: audience, now: clientAssertions.clock.now)
        return configuration
    }

    /// `token_endpoint_auth_methods_supported` from the issuer's metadata; `nil` without an
    /// issuer, or with a token endpoint set by hand (then the configuration alone decides).
    private func advertisedAuthenticationMethods() async throws -> [String]? {
        guard explicit.token == nil, let discovery else { return nil }
        return try await discovery.metadata().metadata.tokenEndpointAuthMethodsSupported
    }
}

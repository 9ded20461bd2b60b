import Foundation
import RiderDomain

/// One request to the token endpoint as a value (RFC 6749 §4–6, RFC 8628 §3.4): the grant with
/// its parameters, and what its answer must show. Built by one constructor per grant and sent by
/// ``AuthorizationService/perform(_:clockSkew:)``, so a new grant (token exchange, client
/// credentials, a JWT bearer assertion) is one more constructor, not a new path through the
/// session engine. (AppAuth's `OIDTokenRequest` and `performTokenRequest`.)
package struct TokenRequest: Sendable {
    /// The grant and what it carries.
    package enum Grant: Sendable {
        /// The resource-owner password grant (RFC 6749 §4.3), for servers that still offer it.
        case password(Credentials)
        /// The authorization code grant (RFC 6749 §4.1.3) ending a browser sign-in, with its PKCE
        /// verifier (RFC 7636 §4.5) and the redirect URI the authorization request named.
        case authorizationCode(code: String, verifier: String, redirectURI: URL)
        /// The device authorization grant (RFC 8628 §3.4), polled until the person approves.
        case deviceCode(DeviceAuthorization)
        /// The refresh token grant (RFC 6749 §6) renewing `session`.
        case refreshToken(String, renewing: Session)
        /// The client credentials grant (RFC 6749 §4.4): tokens for the client as itself, to sign
        /// it in or to renew its session.
        case clientCredentials
    }

    package var grant: Grant
    /// The `nonce` the answer's id_token must carry (a browser sign-in's); its id_token is then
    /// required.
    package var nonce: String?
    /// The DPoP key an authorization code is bound to (chosen, and named as `dpop_jkt`, when the
    /// browser sign-in began); `nil` for a code issued for bearer tokens and for other grants.
    package var proofKey: (any DPoPKey)?

    /// A password sign-in.
    package static func password(_ credentials: Credentials) -> TokenRequest {
        TokenRequest(grant: .password(credentials))
    }

    /// The end of a browser sign-in: `code` for tokens, proven with `authorization`'s verifier.
    package static func authorizationCode(_ code: String, of authorization: BrowserAuthorization) -> TokenRequest {
        TokenRequest(grant: .authorizationCode(code: code, verifier: authorization.codeVerifier,
                                               redirectURI: authorization.redirectURI),
                     nonce: authorization.nonce, proofKey: authorization.proofKey)
    }

    /// One poll of a device sign-in.
    package static func deviceCode(_ authorization: DeviceAuthorization) -> TokenRequest {
        TokenRequest(grant: .deviceCode(authorization))
    }

    /// Tokens for the client as itself.
    package static let clientCredentials = TokenRequest(grant: .clientCredentials)

    /// The renewal of `session` with its refresh token.
    package static func refresh(_ session: Session, with refreshToken: String) -> TokenRequest {
        TokenRequest(grant: .refreshToken(refreshToken, renewing: session))
    }

    /// The session this request renews, for a refresh.
    package var renewing: Session? {
        if case .refreshToken(_, let session) = grant { return session }
        return nil
    }

    /// The endpoint value for `configuration`'s token endpoint: what is sent, and how its answer
    /// and its failures are read (what `invalid_grant` means depends on the grant).
    func endpoint(in configuration: APIConfiguration) -> Endpoint<DevicePoll> {
        switch grant {
        case .password(let credentials): granted(API.passwordGrant(credentials, in: configuration))
        case .authorizationCode(let code, let verifier, let redirectURI):
            granted(API.authorizationCodeGrant(code, codeVerifier: verifier, redirectURI: redirectURI, in: configuration))
        case .deviceCode(let authorization): API.deviceCodeGrant(authorization, in: configuration)
        case .refreshToken(let token, let session):
            // A refresh names the resource its session was issued for, whatever is configured now.
            granted(API.refreshGrant(token, in: configuration.renewing(session)))
        case .clientCredentials: granted(API.clientCredentialsGrant(in: configuration))
        }
    }

    /// A grant's endpoint read as a poll that was granted at once, so every grant has one shape.
    private func granted(_ endpoint: Endpoint<TokenGrant>) -> Endpoint<DevicePoll> {
        var poll = Endpoint<DevicePoll>(method: endpoint.method, path: endpoint.path, headers: endpoint.headers,
                                        body: endpoint.body, authorization: .none,
                                        decode: { .granted(try endpoint.decode($0)) }, mapError: endpoint.mapError)
        poll.followsRedirects = endpoint.followsRedirects
        return poll
    }
}

extension APIConfiguration {
    /// This configuration as `session` was issued with it: its resource (RFC 8707) named.
    func renewing(_ session: Session) -> APIConfiguration {
        var configuration = self
        configuration.resource = session.resource
        return configuration
    }
}

import HTTPTypes

/// An RFC 6749 §5.2 error of `/auth/token`, which answers in OAuth's shape, not problem details.
struct TokenEndpointError: Error, Sendable {
    let code: String
    let description: String

    /// 400 for all codes but `invalid_client`, which is 401 (RFC 6749 §5.2).
    var status: HTTPResponse.Status {
        code == "invalid_client" ? .unauthorized : .badRequest
    }

    static func invalidRequest(_ description: String) -> TokenEndpointError {
        TokenEndpointError(code: "invalid_request", description: description)
    }

    static func invalidGrant(_ description: String) -> TokenEndpointError {
        TokenEndpointError(code: "invalid_grant", description: description)
    }

    static let unsupportedGrantType = TokenEndpointError(
        code: "unsupported_grant_type",
        description: "grant_type must be password, authorization_code, refresh_token, client_credentials or "
            + deviceCodeGrantType
    )

    /// The password grant while it is off (`--no-password-grant`).
    static let passwordGrantOff = TokenEndpointError(
        code: "unsupported_grant_type",
        description: "this server does not take the password grant; sign in in a browser (authorization code with PKCE) or with a device code (RFC 8628)"
    )

    /// RFC 8628 §3.4.
    static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// RFC 8628 §3.5: the person has not answered yet; poll again after the interval.
    static let authorizationPending = TokenEndpointError(
        code: "authorization_pending", description: "the user code has not been approved yet")

    static let slowDown = TokenEndpointError(
        code: "slow_down", description: "polled too soon; wait 5 seconds longer between polls from now on")

    static let accessDenied = TokenEndpointError(
        code: "access_denied", description: "the sign-in was denied on the verification page")

    static let expiredToken = TokenEndpointError(
        code: "expired_token", description: "the device code has expired; start again")

    static let invalidClient = TokenEndpointError(
        code: "invalid_client",
        description: "client authentication failed"
    )

    /// RFC 9449 §5: the DPoP proof is missing where required, or fails a check.
    static func invalidDPoPProof(_ description: String) -> TokenEndpointError {
        TokenEndpointError(code: "invalid_dpop_proof", description: description)
    }

    /// RFC 9449 §8: the proof lacks the server's current nonce, which `DPoP-Nonce` carries.
    static func useDPoPNonce(_ description: String) -> TokenEndpointError {
        TokenEndpointError(code: "use_dpop_nonce", description: description)
    }

    static func invalidScope(_ description: String) -> TokenEndpointError {
        TokenEndpointError(code: "invalid_scope", description: description)
    }
}

extension TokenEndpointError {
    /// RFC 7591 §3.2.2: a registration's metadata is refused.
    static func invalidClientMetadata(_ description: String) -> TokenEndpointError {
        TokenEndpointError(code: "invalid_client_metadata", description: description)
    }

    /// RFC 7591 §3.2.2: a registration's redirect URI is refused.
    static func invalidRedirectURI(_ description: String) -> TokenEndpointError {
        TokenEndpointError(code: "invalid_redirect_uri", description: description)
    }

    /// RFC 6749 §5.2: the client may not use this grant (a registered client's `grant_types`).
    static func unauthorizedClient(_ description: String) -> TokenEndpointError {
        TokenEndpointError(code: "unauthorized_client", description: description)
    }
}

extension TokenEndpointError {
    /// RFC 8707 §2: the `resource` asked for is malformed, unknown, or outside the grant.
    static func invalidTarget(_ description: String) -> TokenEndpointError {
        TokenEndpointError(code: "invalid_target", description: description)
    }
}

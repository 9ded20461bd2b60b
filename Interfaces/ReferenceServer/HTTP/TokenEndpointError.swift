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
        description: "grant_type must be password or refresh_token"
    )

    static let invalidClient = TokenEndpointError(
        code: "invalid_client",
        description: "client authentication failed"
    )

    static func invalidScope(_ description: String) -> TokenEndpointError {
        TokenEndpointError(code: "invalid_scope", description: description)
    }
}

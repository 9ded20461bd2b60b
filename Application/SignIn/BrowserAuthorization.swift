import Foundation
import RiderDomain

/// One browser sign-in's request to the authorization endpoint (RFC 6749 §4.1.1 with RFC 7636
/// PKCE, RFC 9700 §2.1) and the checks its answer must pass (RFC 6749 §4.1.2, RFC 9207).
///
/// Holds the secrets that tie the answer to this request — `state`, the PKCE code verifier, the
/// OpenID `nonce` — so none of them is printed: `description` and the mirror redact them.
///
/// Sent whole in the browser's address, or pushed to the provider first (RFC 9126): then the
/// browser's address carries only the client id and the `request_uri` the provider gave.
package struct BrowserAuthorization: Sendable, CustomStringConvertible, CustomReflectable {
    /// The page the browser opens.
    package private(set) var url: URL
    /// The authorization endpoint, without this request's parameters.
    let endpoint: URL
    /// The request's parameters, in the order sent: in the browser's address, or pushed.
    let parameters: [(String, String)]
    /// The DPoP key the code is bound to (`dpop_jkt`, RFC 9449 §10), whose proof the token
    /// request must carry; `nil` for a sign-in whose tokens are bearer tokens.
    package let proofKey: (any DPoPKey)?
    /// Whether the request was pushed (RFC 9126) and ``url`` names it by its `request_uri`.
    package private(set) var isPushed = false
    /// Where the provider sends the browser back.
    package let redirectURI: URL
    /// The issuer the answer's `iss` must name; `nil` without discovery (then `iss` is not checked).
    package let issuer: String?
    /// Whether the provider said it sends `iss` (RFC 9207 §3): its absence is then a refusal.
    package let issuerIsRequired: Bool
    package let state: String
    package let codeVerifier: String
    /// Sent when `openid` is in the scope; the id_token must carry it back.
    package let nonce: String?

    /// Builds the request: fresh `state`, code verifier (S256 challenge) and, for OpenID, `nonce`.
    /// - Parameters:
    ///   - endpoint: the authorization endpoint.
    ///   - clientID: the client's registered id.
    ///   - redirectURI: the listening redirect endpoint.
    ///   - scope: the scope asked for, if any.
    ///   - issuer: the configured issuer, when discovery told the endpoint.
    ///   - issuerIsRequired: the metadata's `authorization_response_iss_parameter_supported`.
    ///   - cryptography: the random generator and SHA-256.
    ///   - proofKey: the DPoP key to bind the code to (`dpop_jkt`), for a DPoP sign-in.
    ///   - resource: the protected resource the tokens are for (RFC 8707), if one is named.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when the endpoint cannot take a query.
    package init(endpoint: URL, clientID: String, redirectURI: URL, scope: String?, issuer: String?,
                 issuerIsRequired: Bool, cryptography: any SignInCryptography, proofKey: (any DPoPKey)? = nil,
                 resource: URL? = nil) throws {
        // 32 bytes give a 43-character verifier, RFC 7636 §4.1's minimum length and entropy;
        // 16 bytes give the 128 bits the issue asks of state and nonce.
        codeVerifier = Self.base64URL(cryptography.randomBytes(count: 32))
        state = Self.base64URL(cryptography.randomBytes(count: 16))
        let openID = scope?.split(separator: " ").contains("openid") ?? false
        nonce = openID ? Self.base64URL(cryptography.randomBytes(count: 16)) : nil
        self.redirectURI = redirectURI
        self.issuer = issuer
        self.issuerIsRequired = issuerIsRequired
        var query = [("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI.absoluteString)]
        if let scope { query.append(("scope", scope)) }
        if let resource { query.append(("resource", resource.absoluteString)) }
        query.append(("state", state))
        if let nonce { query.append(("nonce", nonce)) }
        query.append(("code_challenge", Self.base64URL(cryptography.sha256(Data(codeVerifier.utf8)))))
        query.append(("code_challenge_method", "S256"))
        if let proofKey { query.append(("dpop_jkt", proofKey.thumbprint)) }
        self.endpoint = endpoint
        self.proofKey = proofKey
        parameters = query
        url = try Self.address(of: endpoint, adding: query)
    }

    /// `endpoint` with `parameters` added to its query: an endpoint may carry a query of its own
    /// (RFC 6749 §3.1), which is kept.
    private static func address(of endpoint: URL, adding parameters: [(String, String)]) throws -> URL {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw RiderError.invalidConfiguration("the authorization endpoint \(endpoint.absoluteString) cannot be parsed")
        }
        components.percentEncodedQuery = [components.percentEncodedQuery, FormEncoding.encode(parameters, spaceAsPlus: false)]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "&")
        guard let url = components.url else {
            throw RiderError.invalidConfiguration("the authorization endpoint \(endpoint.absoluteString) cannot take a query")
        }
        return url
    }

    /// This request once pushed (RFC 9126 §4): the browser's address names it by `requestURI`
    /// beside the client id, and carries nothing else of it.
    /// - Throws: `RiderError.malformedResponse(_:)` when `requestURI` is empty;
    ///   `RiderError.invalidConfiguration(_:)` when the endpoint cannot take a query.
    package func pushed(as requestURI: String) throws -> BrowserAuthorization {
        guard !requestURI.isEmpty, let clientID = parameters.first(where: { $0.0 == "client_id" })?.1 else {
            throw RiderError.malformedResponse("the provider's answer to the pushed authorization request has no request_uri")
        }
        var pushed = self
        pushed.url = try Self.address(of: endpoint, adding: [("client_id", clientID), ("request_uri", requestURI)])
        pushed.isPushed = true
        return pushed
    }

    /// Whether `redirect` is this request's answer: it names `state` once, with this request's
    /// value. The loopback endpoint asks this of every request to the redirect path, so only the
    /// answer ends the wait; anything else there is refused and the wait goes on.
    ///
    /// The comparison takes as long whatever the value, so timing the refusals teaches nothing
    /// about the state.
    /// - Parameter redirect: an address the browser (or anyone) asked the endpoint for.
    /// - Returns: `true` when the address carries this request's `state`, and only it.
    package func isAnswer(_ redirect: URL) -> Bool {
        let query = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        let states = FormEncoding.decode(query).filter { $0.0 == "state" }.map(\.1)
        guard states.count == 1, let returned = states.first else { return false }
        return Self.constantTimeEqual(returned, state)
    }

    /// The authorization code in the provider's answer, once the answer passed every check.
    ///
    /// Order matters: `state` first, so an answer nobody asked for is refused before anything in
    /// it is believed — its `error` included.
    /// - Parameter redirect: the address the browser was sent back to.
    /// - Returns: the code to exchange at the token endpoint.
    /// - Throws: `RiderError.untrustedAuthorizationResponse(_:)` for a missing or wrong `state`, a
    ///   wrong `iss` or one missing where the provider promised it; `RiderError.authorizationDenied`
    ///   for `access_denied`; `RiderError.authorizationFailed(_:description:)` for any other
    ///   `error`; `RiderError.malformedResponse(_:)` for an answer with neither code nor error.
    package func code(from redirect: URL) throws -> String {
        let query = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        let pairs = FormEncoding.decode(query)
        func value(_ name: String) throws -> String? {
            let values = pairs.filter { $0.0 == name }.map(\.1)
            // RFC 6749 §3.1: a parameter sent twice makes the answer invalid.
            guard values.count <= 1 else {
                throw RiderError.untrustedAuthorizationResponse("the answer names \(name) more than once")
            }
            return values.first
        }
        guard let returnedState = try value("state") else {
            throw RiderError.untrustedAuthorizationResponse("the answer carries no state")
        }
        guard Self.constantTimeEqual(returnedState, state) else {
            throw RiderError.untrustedAuthorizationResponse("its state does not match the sign-in this program started")
        }
        // RFC 9207 §2.4: checked on error answers too, which can be forged from a mix-up as well.
        if let issuer {
            switch try value("iss") {
            case nil where issuerIsRequired:
                throw RiderError.untrustedAuthorizationResponse(
                    "the provider promises to name itself in its answer (iss), and this answer does not")
            case let returned? where returned != issuer:
                throw RiderError.untrustedAuthorizationResponse(
                    "it names the issuer \(returned.clipped), not \(issuer)")
            default: break
            }
        }
        if let error = try value("error") {
            if error == "access_denied" { throw RiderError.authorizationDenied }
            throw RiderError.authorizationFailed(error.clipped,
                                                 description: try value("error_description")?.clipped)
        }
        guard let code = try value("code"), !code.isEmpty else {
            throw RiderError.malformedResponse("the provider's answer to the sign-in carries neither a code nor an error")
        }
        return code
    }

    /// Compares every byte whatever the first difference; only the length (public: every state
    /// is 22 characters) shortens it.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (Array(lhs.utf8), Array(rhs.utf8))
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// base64url without padding (RFC 7636 Appendix A).
    package static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    package var description: String {
        "BrowserAuthorization(redirectURI: \(redirectURI), state: <redacted>, codeVerifier: <redacted>, "
            + "pushed: \(isPushed), dpop: \(proofKey != nil))"
    }

    package var customMirror: Mirror {
        Mirror(self, children: ["redirectURI": redirectURI, "issuer": issuer as Any, "state": "<redacted>",
                                "codeVerifier": "<redacted>", "nonce": nonce == nil ? "none" : "<redacted>",
                                "isPushed": isPushed, "dpopKeyThumbprint": proofKey?.thumbprint as Any])
    }
}

private extension String {
    /// Text from a browser's address may be anything an attacker typed, and it ends up in a
    /// terminal: one line, no control characters, at most 200 characters.
    var clipped: String { ProblemMapping.clip(self) }
}

extension BrowserAuthorization {
    /// A browser sign-in's request for the provider `service` talks to: bound to a new DPoP key
    /// when the sign-in's tokens will be, and pushed to the provider first where it takes pushed
    /// requests (or either side requires them).
    /// - Throws: `RiderError.invalidConfiguration(_:)` without a client id or an authorization
    ///   endpoint, or when the provider's metadata rules the flow out; the pushed authorization
    ///   endpoint's refusal, read as the token endpoint's; what discovery throws.
    package static func prepared(by service: AuthorizationService, redirectURI: URL,
                                 cryptography: any SignInCryptography) async throws -> BrowserAuthorization {
        let provider = try await service.server.browserSignIn()
        // The client id and scope as resolved: a client registered with the provider, the scope a
        // protected resource asks for, where nothing is configured.
        let client = try await service.server.signInConfiguration()
        guard let clientID = client.clientID, !clientID.isEmpty else {
            throw RiderError.invalidConfiguration("browser sign-in needs the client id the provider registered for "
                + "this program: set the client id (clientID)").suggesting(.setClientID)
        }
        let authorization = try BrowserAuthorization(
            endpoint: provider.endpoint, clientID: clientID, redirectURI: redirectURI, scope: client.scope,
            issuer: provider.issuer, issuerIsRequired: provider.issuerIsRequired, cryptography: cryptography,
            proofKey: try await service.signInProofKey(), resource: client.resource)
        guard let pushEndpoint = provider.pushEndpoint else { return authorization }
        return try authorization.pushed(as: try await service.push(authorization, to: pushEndpoint))
    }
}

import Crypto
import Foundation

/// The authorization code grant with PKCE (RFC 6749 §4.1, RFC 7636 S256 only, RFC 9700 §2.1.1):
/// the authorization page keeps a request while the person signs in, an approval issues a
/// short-lived code bound to the client, redirect URI and code challenge, and the token endpoint
/// redeems it once with the matching code verifier.
extension ReferenceStore {
    /// The most requests and codes kept at once each; past it the oldest are dropped.
    static let maximumAuthorizations = 10_000
    /// How long the page waits for the person, and how long a code lives (RFC 6749 §4.1.2
    /// recommends at most ten minutes; one is plenty for a redirect).
    static let authorizationRequestLifetime: TimeInterval = 600
    static let authorizationCodeLifetime: TimeInterval = 60

    /// A checked authorization request, kept server-side so the page's form names it by an
    /// unguessable id and cannot change what was asked.
    struct AuthorizationRequest: Sendable {
        let clientID: String
        let redirectURI: String
        let scope: String?
        let state: String?
        let nonce: String?
        let codeChallenge: String
        /// The thumbprint of the DPoP key the code must be redeemed with (`dpop_jkt`, RFC 9449
        /// §10), when the request named one.
        var dpopKeyThumbprint: String? = nil
        /// The resource (RFC 8707) the request asked for, canonical; `nil`: none.
        var resource: String? = nil
        var expiresAt = Date.distantFuture
        var sequence: UInt64 = 0
    }

    struct AuthorizationCode: Sendable {
        let userIndex: Int
        let request: AuthorizationRequest
        let expiresAt: Date
    }

    /// Keeps `request` until the person answers; returns its id.
    func startAuthorization(_ request: AuthorizationRequest) -> String {
        let now = now()
        for (id, kept) in authorizationRequests where kept.expiresAt <= now { authorizationRequests[id] = nil }
        if authorizationRequests.count >= Self.maximumAuthorizations,
           let oldest = authorizationRequests.min(by: { $0.value.sequence < $1.value.sequence }) {
            authorizationRequests[oldest.key] = nil
        }
        var request = request
        request.expiresAt = now.addingTimeInterval(Self.authorizationRequestLifetime)
        request.sequence = deviceSequence
        deviceSequence += 1
        let id = tokenGenerator.next()
        authorizationRequests[id] = request
        return id
    }

    /// The request the page shows, if it is still waiting.
    func authorizationRequest(id: String) -> AuthorizationRequest? {
        guard let request = authorizationRequests[id], request.expiresAt > now() else { return nil }
        return request
    }

    enum AuthorizationDecision: Sendable {
        /// Approved: redirect with this code.
        case approved(code: String, AuthorizationRequest)
        /// Denied: redirect with `access_denied`.
        case denied(AuthorizationRequest)
        /// The request is unknown or expired: the page says so, nothing is redirected.
        case unknownRequest
        /// Wrong email or password: the form again, the request still waiting.
        case refused(AuthorizationRequest)
        case throttled(retryAfter: Int, AuthorizationRequest)
    }

    /// The person's answer on the authorization page, after the same credential check and login
    /// throttle as the password grant. A denial needs the credentials too, as on `/device`.
    func decideAuthorization(requestID: String, email: String, password: String, approve: Bool,
                             client: String) -> AuthorizationDecision {
        guard let request = authorizationRequest(id: requestID) else { return .unknownRequest }
        switch checkCredentials(email: email, password: password, client: client) {
        case .throttled(let wait):
            return .throttled(retryAfter: wait, request)
        case .refused:
            return .refused(request)
        case .accepted(let index):
            authorizationRequests[requestID] = nil
            guard approve else { return .denied(request) }
            if authorizationCodes.count >= Self.maximumAuthorizations {
                let now = now()
                for (code, kept) in authorizationCodes where kept.expiresAt <= now { authorizationCodes[code] = nil }
                if authorizationCodes.count >= Self.maximumAuthorizations,
                   let oldest = authorizationCodes.min(by: { $0.value.request.sequence < $1.value.request.sequence }) {
                    authorizationCodes[oldest.key] = nil
                }
            }
            let code = tokenGenerator.next()
            authorizationCodes[code] = AuthorizationCode(
                userIndex: index, request: request, expiresAt: now().addingTimeInterval(Self.authorizationCodeLifetime))
            return .approved(code: code, request)
        }
    }

    enum CodeGrantOutcome: Sendable {
        case granted(TokenPair, nonce: String?)
        /// `invalid_grant`, with the reason for `error_description`.
        case invalid(String)
        /// `invalid_target` (RFC 8707 §2.2): a resource the authorization request did not ask for.
        case invalidTarget(String)
    }

    /// Redeems `code` (RFC 6749 §4.1.3, RFC 7636 §4.6): once, before it expires, by the client
    /// it was issued to, with the same redirect URI and a verifier whose S256 is the challenge.
    /// A failed attempt spends the code too, so a stolen code cannot be tried again and again.
    /// - Parameters:
    ///   - jkt: The DPoP key the request proved, which the tokens are bound to.
    ///   - resource: The canonical resource the token request asked for: the authorization
    ///     request's, if it named one (RFC 8707 §2.2); the access token is for it.
    func authorizationCodeGrant(code: String, clientID: String?, redirectURI: String?,
                                codeVerifier: String?, jkt: String?, resource: String? = nil) -> CodeGrantOutcome {
        guard let issued = authorizationCodes.removeValue(forKey: code) else {
            return .invalid("the authorization code is unknown or already used")
        }
        guard issued.expiresAt > now() else { return .invalid("the authorization code has expired") }
        guard clientID == issued.request.clientID else {
            return .invalid("the authorization code was issued to another client")
        }
        guard redirectURI == issued.request.redirectURI else {
            return .invalid("redirect_uri differs from the authorization request's")
        }
        guard let codeVerifier, Self.isCodeVerifier(codeVerifier),
              Self.s256(codeVerifier) == issued.request.codeChallenge else {
            return .invalid("the code_verifier does not match the code_challenge")
        }
        // RFC 9449 §10: the code is bound to the key the authorization request named.
        if let bound = issued.request.dpopKeyThumbprint, bound != jkt {
            return .invalid("the authorization request named another DPoP key (dpop_jkt) than this request proves")
        }
        if let resource, let granted = issued.request.resource, resource != granted {
            return .invalidTarget("the authorization request was for the resource \(granted), not \(resource)")
        }
        counters.authorizationCodeGrants += 1
        return .granted(issueTokens(userIndex: issued.userIndex, scope: issued.request.scope, jkt: jkt,
                                    resource: issued.request.resource, audience: resource ?? issued.request.resource),
                        nonce: issued.request.nonce)
    }

    /// RFC 7636 §4.1: 43 to 128 unreserved characters.
    static func isCodeVerifier(_ text: String) -> Bool {
        (43...128).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
        }
    }

    /// `BASE64URL(SHA256(ASCII(verifier)))` without padding (RFC 7636 §4.2).
    static func s256(_ verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

import Foundation
import RiderDomain

/// The OAuth 2.0 / OpenID Connect client, stateless: the one place where a token, revocation or
/// userinfo request is built and sent, and where an answer is checked — client authentication
/// (in the `API` endpoints), the id_token (signature, claims, nonce), and whose tokens they are.
/// The session engine decides *when* to sign in or refresh and keeps what comes back; this
/// decides nothing and keeps nothing but the provider's key set. (AppAuth's
/// `OIDAuthorizationService`.)
package struct AuthorizationService: Sendable {
    /// The API and client configuration (client id and secret, scope).
    package let configuration: APIConfiguration
    /// Where token and revocation requests go: the configured paths, or what discovery names.
    package let server: AuthorizationServer
    /// The network steps only: the token endpoint is never sent a bearer token and never twice.
    private let transport: any HTTPTransport
    /// The provider's signing keys, for id_tokens; `nil` when no verifier was given (id_tokens
    /// are then not read, and a sign-in that requires one is refused).
    private let keys: ProviderKeys?
    private let clock: any Clock
    /// Proofs of possession for key-bound sessions and sign-ins (RFC 9449); `nil` when the
    /// program has no key maker (then no sign-in binds its tokens).
    package let dpop: DPoP?

    /// - Parameters:
    ///   - configuration: the client's identity and the API.
    ///   - server: where the token and revocation endpoints are.
    ///   - transport: sends the requests (no retries, no bearer token unless given).
    ///   - idTokenVerifier: checks id_tokens' signatures; without one they are not read.
    ///   - clock: the device clock, for the id_token's `exp` and `iat`.
    ///   - dpopKeys: makes and restores DPoP keys; without it, no sign-in binds its tokens.
    package init(configuration: APIConfiguration, server: AuthorizationServer, transport: any HTTPTransport,
                 idTokenVerifier: (any IDTokenSignatureVerifier)?, clock: any Clock,
                 dpopKeys: (any DPoPKeyFactory)? = nil) {
        dpop = dpopKeys.map { DPoP(keys: $0, clock: clock) }
        self.configuration = configuration
        self.server = server
        self.transport = transport
        keys = idTokenVerifier.map(ProviderKeys.init(verifier:))
        self.clock = clock
    }

    // MARK: - The token endpoint

    /// Sends `request` to the token endpoint and checks its answer: for a refresh, that it names
    /// the session's account (its id_token too, OpenID Connect Core §12.2); for a sign-in, whose
    /// tokens they are (the verified id_token's subject, else the userinfo endpoint's).
    /// - Parameter clockSkew: the server's clock ahead of the device's, as last measured; the
    ///   answer's own `Date` wins when it has one.
    /// - Returns: the poll's outcome; a granted answer checked, its account and identity filled
    ///   in where the provider said them.
    /// - Throws: the token endpoint's error as its grant reads it (`invalid_grant` is a wrong
    ///   password, an expired session or a refused code); `RiderError.untrustedAuthorizationResponse(_:)`
    ///   for an answer that fails a check — tokens issued by a sign-in are then revoked first;
    ///   `RiderError.malformedResponse(_:)`; network errors.
    package func perform(_ request: TokenRequest, clockSkew: TimeInterval) async throws -> DevicePoll {
        // A sign-in asks for the scope a protected resource names; a refresh keeps its grant's.
        let client = request.renewing == nil ? try await server.signInConfiguration()
            : try await server.resolvedConfiguration()
        let tokens = try await server.authenticating(client)
        let key = try await proofKey(for: request)
        let poll: DevicePoll
        do {
            poll = try await send(request.endpoint(in: tokens), proving: key)
        } catch let error as RiderError where error.underlying is TokenErrorMapping.ClientRejected {
            // A registration the provider no longer knows is registered again at the next sign-in.
            await server.forgetRegisteredClient()
            throw error
        }
        guard case .granted(let grant) = poll else { return poll }
        return .granted(try await checked(grant, of: request, boundTo: key, clockSkew: clockSkew, client: tokens))
    }

    /// The key `request` proves possession of: a refresh's, the session's; an authorization
    /// code's, the one chosen when its browser sign-in began; another sign-in's, a new one when
    /// the configuration asks for DPoP, or leaves it to a provider that offers it.
    private func proofKey(for request: TokenRequest) async throws -> (any DPoPKey)? {
        if let current = request.renewing {
            guard current.isSenderConstrained else { return nil }
            guard let dpop else {
                throw RiderError.invalidConfiguration("the session is bound to a DPoP key, and this program signs no "
                    + "DPoP proofs")
            }
            return try dpop.key(of: current)
        }
        if case .authorizationCode = request.grant { return request.proofKey }
        return try await signInProofKey()
    }

    /// The key a new sign-in binds its tokens to: a new one when the configuration asks for DPoP,
    /// or leaves it to a provider that offers it; `nil` for bearer tokens.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when DPoP is required and this program
    ///   signs no proofs; what discovery throws.
    package func signInProofKey() async throws -> (any DPoPKey)? {
        switch configuration.dpop {
        case .off:
            return nil
        case .required:
            guard let dpop else {
                throw RiderError.invalidConfiguration("DPoP is required, and this program signs no DPoP proofs")
            }
            return dpop.newKey()
        case .auto:
            return try await server.offersDPoP() ? dpop?.newKey() : nil
        }
    }

    /// `grant` bound to `key` as its answer says (RFC 9449 §5): a `DPoP` token type when a proof
    /// was sent, a `Bearer` one otherwise — except where the binding is required.
    private func bound(_ grant: TokenGrant, to key: (any DPoPKey)?, renewing current: Session?) throws -> TokenGrant {
        var grant = grant
        guard let key else {
            if grant.isDPoPBound {
                throw RiderError.untrustedAuthorizationResponse("the provider issued a DPoP-bound token, though no "
                    + "DPoP proof was sent")
            }
            return grant
        }
        if grant.isDPoPBound {
            grant.proofKey = key.privateKeyRepresentation
        } else if current?.isSenderConstrained == true {
            throw RiderError.untrustedAuthorizationResponse("the provider renewed a DPoP-bound session with a bearer "
                + "token, which anyone holding it could use")
        } else if configuration.dpop == .required {
            throw RiderError.untrustedAuthorizationResponse("the provider answered with a bearer token, and DPoP is "
                + "required")
        }
        return grant
    }

    /// A granted answer, checked as `request` requires, for the client as resolved (`client`: its
    /// id perhaps registered, its scope perhaps the resource's).
    private func checked(_ grant: TokenGrant, of request: TokenRequest, boundTo key: (any DPoPKey)?,
                         clockSkew: TimeInterval, client: APIConfiguration) async throws -> TokenGrant {
        var grant = grant
        if let current = request.renewing {
            do {
                grant = try bound(grant, to: key, renewing: current)
                // A refresh answer for another account is a server fault; taking it would quietly
                // switch the signed-in user.
                if let granted = grant.userID, granted != current.userID {
                    throw RiderError.malformedResponse("the refresh answer is for a different user than the session")
                }
                // OpenID Connect Core §12.2: checked as at sign-in (without a nonce), the same account.
                if let claims = try await verifiedClaims(of: grant, nonce: nil, clockSkew: clockSkew,
                                                         clientID: client.clientID) {
                    guard claims.subject == current.userID.rawValue else {
                        throw RiderError.untrustedAuthorizationResponse("the id_token names another account than "
                            + "the session")
                    }
                    grant.identity = claims.identity
                }
            } catch {
                // The provider has answered, so the refresh token sent is spent: a provider that
                // rotates would take it again as a replay and end the session on its side. Nothing
                // of the answer is kept, so end what it issued, and the refresh token itself where
                // the answer rotated none, then let the engine end the session.
                if let issued = try? grant.session(issuedAt: clock.now, userID: current.userID, previous: current) {
                    await revokeUnkept(issued)
                }
                throw RefusedRefreshAnswer(refusal: error)
            }
            return grant
        }
        if case .clientCredentials = request.grant {
            // No person, no id_token to check: the session is the client's own, named by the
            // token response where the server says whose it is, else by the client id.
            do {
                grant = try bound(grant, to: key, renewing: nil)
            } catch {
                if let issued = try? grant.session(issuedAt: clock.now, userID: UserID("")) { await revokeUnkept(issued) }
                throw error
            }
            let clientID = client.clientID ?? ""
            grant.userID = grant.userID ?? UserID(clientID)
            grant.identity = grant.identity ?? AccountIdentity(email: nil, name: clientID, source: .credentials)
            grant.issuedToClient = true
            return grant
        }
        do {
            grant = try bound(grant, to: key, renewing: nil)
            if let claims = try await verifiedClaims(of: grant, nonce: request.nonce, clockSkew: clockSkew,
                                                     clientID: client.clientID) {
                if let stated = grant.userID, stated.rawValue != claims.subject {
                    throw RiderError.untrustedAuthorizationResponse("the id_token names another account than the "
                        + "token response")
                }
                grant.userID = UserID(claims.subject)
                grant.identity = claims.identity
            } else if client.requestsOpenID, let userinfo = try? await server.openID()?.userinfo {
                let provisional = try grant.session(issuedAt: clock.now, userID: grant.userID ?? UserID(""))
                let answer = try await send(API.userinfo(at: userinfo), as: provisional)
                if let stated = grant.userID, stated.rawValue != answer.subject {
                    throw RiderError.untrustedAuthorizationResponse("the userinfo endpoint names another account "
                        + "than the token response")
                }
                grant.userID = UserID(answer.subject)
                grant.identity = answer.identity
            }
        } catch {
            // Tokens were issued that nobody will keep: end them on the server too.
            if let issued = try? grant.session(issuedAt: clock.now, userID: UserID("")) { await revokeUnkept(issued) }
            throw error
        }
        return grant
    }

    /// The id_token's claims, once its signature and claims are checked (OpenID Connect Core
    /// §3.1.3.7); `nil` when there is none, or none RiderKit can check and none was asked for.
    private func verifiedClaims(of grant: TokenGrant, nonce: String?, clockSkew: TimeInterval,
                                clientID: String?) async throws -> IDTokenClaims? {
        guard let idToken = grant.idToken else {
            if nonce != nil {
                throw RiderError.untrustedAuthorizationResponse("the provider sent no id_token, though the sign-in "
                    + "asked for one (openid)")
            }
            return nil
        }
        guard let keys, let openID = try await server.openID(), let keySet = openID.keySet, let clientID else {
            if nonce != nil {
                throw RiderError.invalidConfiguration("the id_token cannot be checked: set issuer (its metadata "
                    + "names jwks_uri) and client_id")
            }
            return nil
        }
        let payload = try await keys.verifiedPayload(of: idToken) { try await self.send(API.keySet(at: keySet)) }
        // exp and iat are the provider's clock: compared with ours corrected by the skew the
        // token response's Date shows (or the last one measured), within the bound the claims
        // set — the Date is the server's word, as the token is.
        let now = clock.now
        return try IDTokenClaims.checked(payload, issuer: openID.issuer, clientID: clientID, nonce: nonce,
                                         now: now, clockSkew: grant.clockSkew(receivedAt: now) ?? clockSkew)
    }

    /// The session a sign-in's grant describes, made whole: whose it is, asked of the API when the
    /// grant did not say (a standard OAuth server need not), and where its tokens may be revoked,
    /// fixed now by the configuration they were issued with.
    /// - Parameters:
    ///   - provisional: the session built from the grant.
    ///   - namedByGrant: whether the grant (or its id_token, or userinfo) named the account.
    package func signedIn(_ provisional: Session, namedByGrant: Bool) async throws -> Session {
        var session = provisional
        if !namedByGrant {
            let account = try await account(of: provisional)
            session.userID = account.id
            if session.role == nil { session.role = account.role }
        }
        session.revocationOrigin = await server.revocationOrigin()
        session.resource = configuration.resource
        return session
    }

    /// Whose session `provisional` is, asked of the API (`GET /auth/me`): a standard OAuth server
    /// need not say in its token response.
    package func account(of provisional: Session) async throws -> (id: UserID, role: Role?) {
        let me = try await send(API.me(in: configuration), as: provisional)
        return (me.id, me.role)
    }

    // MARK: - Pushed authorization requests

    /// Pushes `authorization`'s parameters to the provider (RFC 9126 §2.1), authenticated as the
    /// client is at the token endpoint. A DPoP sign-in proves its key on the push too (RFC 9449
    /// §10.1) beside naming it as `dpop_jkt`: some providers bind the request by the proof alone.
    /// - Returns: the `request_uri` that names the pushed request in the browser's address.
    /// - Throws: the endpoint's refusal, read as the token endpoint's (RFC 9126 §2.3);
    ///   `RiderError.malformedResponse(_:)` for an unusable answer; network errors.
    package func push(_ authorization: BrowserAuthorization, to endpoint: URL) async throws -> String {
        let tokens = try await server.authenticating(try await server.resolvedConfiguration())
        return try await send(API.pushedAuthorizationRequest(authorization.parameters, at: endpoint, in: tokens),
                              proving: authorization.proofKey)
    }

    // MARK: - Device sign-in

    /// Asks the provider for a device sign-in (RFC 8628 §3.1): the code a person enters at its page.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when the provider offers no device sign-in,
    ///   `RiderError.malformedResponse(_:)` for an unusable answer, network errors.
    package func requestDeviceAuthorization() async throws -> DeviceAuthorization {
        let endpoint = try await server.deviceAuthorizationEndpoint()
        let tokens = try await server.authenticating(try await server.signInConfiguration())
        return try await send(API.deviceAuthorization(at: endpoint, now: clock.now, in: tokens))
    }

    // MARK: - Revocation

    /// Revokes `session` on the server (signing out, deleting the account): the refresh token
    /// first, which ends the whole grant (RFC 7009 §2.1), then the access token.
    ///
    /// Only at the revocation endpoint the session was issued with
    /// (``AuthorizationServer/revocationConfiguration(for:)``).
    /// - Returns: whether the server was told: `false` when the provider has no revocation endpoint.
    /// - Throws: `RiderError.storage(_:)` when the configured revocation endpoint is not the
    ///   session's (nothing was sent); else the first failure, the access token then not attempted.
    @discardableResult
    package func revoke(_ session: Session) async throws -> Bool {
        guard let revocations = try await server.revocationConfiguration(for: session) else { return false }
        try await revoke(session, at: revocations, failed: { throw $0 })
        return true
    }

    /// Revokes tokens just issued that will not be kept, where the provider can revoke: a sign-in's
    /// at the revocation endpoint configured now, which is what they are issued with; a refresh's
    /// (whose session recorded where it was issued) only there, as every stored token.
    /// Best effort: a token the server did not take does not stop the next.
    package func revokeUnkept(_ session: Session) async {
        let configuration = session.revocationOrigin == nil
            ? try? await server.revocationConfiguration()
            : try? await server.revocationConfiguration(for: session)
        guard let revocations = configuration else { return }
        try? await revoke(session, at: revocations, failed: { _ in })
    }

    /// Sends the revocations that end `session` to the endpoint of `revocations`, in order; each
    /// is authenticated anew, since a private_key_jwt assertion is good for one request.
    /// - Parameter failed: told a revocation's failure; rethrowing it sends no more.
    /// - Throws: what client authentication throws (nothing more is sent), what `failed` throws.
    private func revoke(_ session: Session, at revocations: APIConfiguration,
                        failed: (any Error) throws -> Void) async throws {
        for (token, hint) in API.revokedTokens(of: session) {
            let revocation = API.revoke(token, hint: hint, in: try await server.authenticating(revocations))
            do {
                try await send(revocation)
            } catch {
                try failed(error)
            }
        }
    }

    // MARK: - Sending

    /// Sends one of the client's own requests straight through the transport: no retries; with
    /// `session`'s credentials when given, with a proof of `key` when given (a token request).
    private func send<Response>(_ endpoint: Endpoint<Response>, as session: Session? = nil,
                                proving key: (any DPoPKey)? = nil) async throws -> Response {
        let request = try endpoint.request(in: configuration)
        let response: HTTPResponse
        if let session {
            response = try await send(request, as: session, through: transport.send)
        } else if let key, let dpop {
            response = try await dpop.send(request, with: key, accessToken: nil, through: transport.send)
        } else {
            response = try await transport.send(request)
        }
        return try endpoint.response(from: response)
    }

    /// Sends `request` through `next` with `session`'s credentials: its bearer token, or, for a
    /// session bound to a DPoP key, its token with a fresh proof (sent once more when the server
    /// asks for a nonce). The one place a session's credentials are attached.
    /// - Throws: `RiderError.invalidConfiguration(_:)` for a key-bound session when this program
    ///   signs no proofs; `RiderError.storage(_:)` when its key cannot be read; what `next` throws.
    package func send(_ request: HTTPRequest, as session: Session,
                      through next: (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        guard session.isSenderConstrained else {
            return try await next(AuthorizationHeader.bearer(session.accessToken).applied(to: request))
        }
        guard let dpop, let key = try dpop.key(of: session) else {
            throw RiderError.invalidConfiguration("the session is bound to a DPoP key, and this program signs no "
                + "DPoP proofs")
        }
        return try await dpop.send(AuthorizationHeader.dpop(session.accessToken).applied(to: request), with: key,
                                   accessToken: session.accessToken, through: next)
    }
}

/// A refresh answer the token endpoint gave and ``AuthorizationService`` refused (its id_token,
/// or the account it names): terminal for the session, unlike a refresh that got no answer. The
/// tokens it issued were revoked where the provider can revoke.
package struct RefusedRefreshAnswer: Error {
    /// Why the answer was refused, as the check said it.
    package let refusal: any Error

    /// The error for the caller, worded for a refresh: the session ended, nobody is signing in.
    package var error: RiderError {
        let what: String
        if let refusal = refusal as? RiderError, refusal.code == .untrustedAuthorizationResponse
            || refusal.code == .malformedResponse, let detail = refusal.detail {
            what = detail
        } else {
            what = "its id_token could not be checked (\((refusal as? RiderError)?.message ?? "\(type(of: refusal))"))"
        }
        return RiderError(code: .untrustedAuthorizationResponse,
                          message: "The provider's answer to renewing the session was refused: \(what). The session "
                              + "was ended and the tokens it was just given revoked, so sign in again.",
                          detail: what, underlying: refusal)
    }
}

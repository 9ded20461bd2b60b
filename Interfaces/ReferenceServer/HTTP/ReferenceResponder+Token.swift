import Foundation
import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `POST /auth/token`: the password, authorization code and refresh-token grants (RFC 6749
    /// §4.3, §4.1.3, §6) and the device code grant (RFC 8628 §3.4).
    /// - Parameter client: The peer's address, which the login throttle counts failures by.
    /// - Throws: A `429` problem with `Retry-After` while the login throttle holds password
    ///   grants back (RFC 6749 has no error code for it, so it is a problem like other statuses).
    func token(_ request: Request, client: String) async throws -> Response {
        do {
            let pair = try await grant(request, form: try await tokenForm(request), client: client)
            return try Responses.json(TokenResponseBody(pair), headers: Self.noStore)
        } catch let error as TokenEndpointError {
            await store.recordFailedTokenRequest()
            return Responses.tokenError(error)
        }
    }

    /// `POST /auth/revoke` (RFC 7009): `200` whether or not the token was known, so the
    /// endpoint cannot be used to probe for valid tokens.
    func revoke(_ request: Request) async throws -> Response {
        guard mediaType(of: request) == Self.formMediaType else {
            throw APIProblem.badRequest(detail: "The body must be sent as \(Self.formMediaType).")
        }
        let form = try await form(of: request)
        guard let token = form["token"], !token.isEmpty else {
            throw APIProblem.badRequest(
                detail: "The token to revoke is missing.",
                errors: [FieldError(field: "token", message: "is required")]
            )
        }
        // token_type_hint is only a hint (RFC 7009 §2.1); both tables are searched regardless.
        await store.revoke(token: token)
        return Response(status: .ok, headers: Self.noStore)
    }

    /// Runs the grant the form names.
    /// - Parameter client: The peer's address, for the login throttle.
    func grant(_ request: Request, form: FormFields, client: String) async throws -> TokenPair {
        if let repeated = Set(form.pairs.map(\.name)).sorted().first(where: { $0 != "resource" && form.count(of: $0) > 1 }) {
            throw TokenEndpointError.invalidRequest("the parameter \(repeated) must not be repeated")
        }
        let scope = try Self.scope(form["scope"])
        let resource = try await requestedResource(form)
        // Before the grant is looked at: a request refused for its proof spends no code or token.
        let jkt = try await tokenRequestProof(request)
        // A client the server requires DPoP of (`--dpop-required-client`) gets no bearer tokens,
        // whether it names itself (client_id) or authenticates (HTTP Basic, an assertion).
        if jkt == nil, !dpopRequiredClients.isEmpty {
            var named = form["client_id"]
            if named == nil { named = (try? await authenticatedClient(request, form: form)) ?? nil }
            if let named, dpopRequiredClients.contains(named) {
                throw TokenEndpointError.invalidDPoPProof("this server requires a DPoP proof from the client \(named)")
            }
        }
        switch form["grant_type"] {
        case nil, ""?:
            throw TokenEndpointError.invalidRequest("grant_type is missing")
        case "password"? where !passwordGrant:
            throw TokenEndpointError.passwordGrantOff
        case "password"?:
            let username = try Self.required(form, "username")
            let password = try Self.required(form, "password")
            switch await store.passwordGrant(email: username, password: password, scope: scope, client: client, jkt: jkt,
                                           resource: resource) {
            case .granted(let pair):
                return pair
            case .refused:
                throw TokenEndpointError.invalidGrant("the email or password is wrong")
            case .throttled(let retryAfter):
                throw APIProblem.tooManyRequests(retryAfter: retryAfter)
            }
        case "refresh_token"?:
            let refreshToken = try Self.required(form, "refresh_token")
            // The refresh token names no client here; a registered one that names itself is held
            // to the grants it registered.
            if let registered = await registeredClient(request, form: form) {
                try await requireGrant("refresh_token", for: registered.id)
            }
            switch await store.refreshGrant(refreshToken: refreshToken, jkt: jkt, resource: resource) {
            case .granted(let pair):
                return pair
            case .invalidTarget(let reason):
                throw TokenEndpointError.invalidTarget(reason)
            case .invalid:
                throw TokenEndpointError.invalidGrant(
                    "the refresh token is unknown, expired, revoked or already used (reusing one revokes every token of its sign-in)")
            case .wrongKey:
                throw TokenEndpointError.invalidDPoPProof("the refresh token is bound to a DPoP key this request did not prove")
            }
        case TokenEndpointError.deviceCodeGrantType?:
            let deviceCode = try Self.required(form, "device_code")
            let clientID = try await authenticatedClient(request, form: form)
            try await requireGrant(TokenEndpointError.deviceCodeGrantType, for: clientID)
            switch await store.deviceCodeGrant(deviceCode: deviceCode, clientID: clientID, jkt: jkt, resource: resource) {
            case .granted(let pair):
                return try await withIDToken(await withoutUnregisteredRefresh(pair, clientID: clientID),
                                             audience: clientID, nonce: nil)
            case .pending: throw TokenEndpointError.authorizationPending
            case .slowDown: throw TokenEndpointError.slowDown
            case .denied: throw TokenEndpointError.accessDenied
            case .expired: throw TokenEndpointError.expiredToken
            case .invalid:
                throw TokenEndpointError.invalidGrant("the device code is unknown, already used, or was issued to another client")
            case .invalidTarget(let reason):
                throw TokenEndpointError.invalidTarget(reason)
            }
        case "client_credentials"?:
            // RFC 6749 §4.4: only a client that authenticates (a secret or a key) acts as itself.
            guard let clientID = try await authenticatedClient(request, form: form),
                  clientID != PublicOAuthClient.id, await store.registeredClient(id: clientID) == nil else {
                throw TokenEndpointError(code: "unauthorized_client",
                                         description: "the client credentials grant is for a client that authenticates "
                                             + "(\(StandardOAuthClient.id) with its secret, \(KeyOAuthClient.id) with its key)")
            }
            return await store.clientCredentialsGrant(clientID: clientID, scope: scope, jkt: jkt, resource: resource)
        case "authorization_code"?:
            let code = try Self.required(form, "code")
            let clientID = try await authenticatedClient(request, form: form)
            try await requireGrant("authorization_code", for: clientID)
            switch await store.authorizationCodeGrant(code: code, clientID: clientID, redirectURI: form["redirect_uri"],
                                                      codeVerifier: form["code_verifier"], jkt: jkt, resource: resource) {
            case .granted(let pair, let nonce):
                return try await withIDToken(await withoutUnregisteredRefresh(pair, clientID: clientID),
                                             audience: clientID, nonce: nonce)
            case .invalid(let reason): throw TokenEndpointError.invalidGrant(reason)
            case .invalidTarget(let reason): throw TokenEndpointError.invalidTarget(reason)
            }
        default:
            throw TokenEndpointError.unsupportedGrantType
        }
    }

    /// `pair` without its refresh token when `clientID` is a registered client that did not
    /// register the refresh token grant (RFC 7591 §2): it could not use one.
    private func withoutUnregisteredRefresh(_ pair: TokenPair, clientID: String?) async -> TokenPair {
        guard let clientID, let registered = await store.registeredClient(id: clientID),
              !registered.allows("refresh_token") else { return pair }
        return await store.withoutRefreshToken(pair)
    }

    /// `pair` with an id_token (OpenID Connect Core §3.1.3.3) when its scope asks for `openid`
    /// and a client id names the audience.
    private func withIDToken(_ pair: TokenPair, audience: String?, nonce: String?) async throws -> TokenPair {
        guard let audience, pair.scope?.split(separator: " ").contains("openid") == true else { return pair }
        var pair = pair
        pair.idToken = try await idTokens.sign(user: pair.user, audience: audience, nonce: nonce,
                                               issuer: await store.origin, now: Date())
        return pair
    }

    /// The canonical resource (RFC 8707 §2) a request's `resource` names; `nil` without one.
    /// - Throws: `invalid_target` for a malformed or unknown resource, or more than one: this
    ///   server issues a token for one resource at a time.
    func requestedResource(_ fields: FormFields) async throws(TokenEndpointError) -> String? {
        let values = fields.pairs.filter { $0.name == "resource" }.map(\.value)
        guard let first = values.first else { return nil }
        guard values.count == 1 else {
            throw .invalidTarget("this server issues a token for one resource at a time: send resource once")
        }
        return try ProtectedResource.canonical(first, origin: await store.origin)
    }

    /// The form body, with every failure expressed as `invalid_request`.
    func tokenForm(_ request: Request) async throws -> FormFields {
        guard mediaType(of: request) == Self.formMediaType else {
            throw TokenEndpointError.invalidRequest("the body must be sent as \(Self.formMediaType)")
        }
        do {
            return try await form(of: request)
        } catch let problem as APIProblem {
            throw TokenEndpointError.invalidRequest(problem.detail)
        }
    }

    static func required(_ form: FormFields, _ name: String) throws -> String {
        guard let value = form[name], !value.isEmpty else {
            throw TokenEndpointError.invalidRequest("\(name) is missing")
        }
        return value
    }

    /// RFC 6749 §3.3: space-separated tokens of printable ASCII other than `"` and `\`.
    /// The server grants whatever well-formed scope is asked for and echoes it back.
    static func scope(_ raw: String?) throws -> String? {
        guard let raw, !raw.isEmpty else { return nil }
        let tokens = raw.split(separator: " ", omittingEmptySubsequences: false)
        let valid = tokens.allSatisfy { token in
            !token.isEmpty && token.unicodeScalars.allSatisfy { scalar in
                scalar.value == 0x21 || (0x23...0x5B).contains(scalar.value) || (0x5D...0x7E).contains(scalar.value)
            }
        }
        guard valid else { throw TokenEndpointError.invalidScope("scope must be space-separated printable ASCII tokens") }
        return raw
    }
}

import Foundation
import RiderDomain

/// The API contract (`docs/openapi.yaml`) as typed endpoint values.
///
/// The only place that knows paths, parameters and wire formats; use cases compose these.
package enum API {}

// MARK: - Auth

extension API {
    /// `POST {tokenPath}` with the resource-owner password grant (RFC 6749 §4.3).
    package static func passwordGrant(_ credentials: Credentials, in configuration: APIConfiguration) -> Endpoint<TokenGrant> {
        var form = [("grant_type", "password"), ("username", credentials.email), ("password", credentials.password)]
        if let scope = configuration.scope { form.append(("scope", scope)) }
        return tokenEndpoint(form: form, grant: .password, in: configuration)
    }

    /// `POST {tokenPath}` with the authorization code grant (RFC 6749 §4.1.3) and its PKCE code
    /// verifier (RFC 7636 §4.5), sent to the same redirect URI the authorization request named.
    package static func authorizationCodeGrant(_ code: String, codeVerifier: String, redirectURI: URL,
                                               in configuration: APIConfiguration) -> Endpoint<TokenGrant> {
        let form = [("grant_type", "authorization_code"), ("code", code),
                    ("redirect_uri", redirectURI.absoluteString), ("code_verifier", codeVerifier)]
        return tokenEndpoint(form: form, grant: .authorizationCode, in: configuration)
    }

    /// `POST {tokenPath}` with the refresh-token grant (RFC 6749 §6).
    package static func refreshGrant(_ refreshToken: String, in configuration: APIConfiguration) -> Endpoint<TokenGrant> {
        var form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scope = configuration.scope { form.append(("scope", scope)) }
        return tokenEndpoint(form: form, grant: .refreshToken, in: configuration)
    }

    /// `POST {tokenPath}` with the client credentials grant (RFC 6749 §4.4): tokens for the
    /// client itself, which must authenticate.
    package static func clientCredentialsGrant(in configuration: APIConfiguration) -> Endpoint<TokenGrant> {
        var form = [("grant_type", "client_credentials")]
        if let scope = configuration.scope { form.append(("scope", scope)) }
        return tokenEndpoint(form: form, grant: .clientCredentials, in: configuration)
    }

    /// The tokens that end `session` on the server, in the order they are revoked, with their
    /// `token_type_hint`s: the refresh token first, which ends the whole grant (RFC 7009 §2.1),
    /// then the access token.
    package static func revokedTokens(of session: Session) -> [(token: String, hint: String)] {
        (session.refreshToken.map { [($0, "refresh_token")] } ?? []) + [(session.accessToken, "access_token")]
    }

    /// `POST {revokePath}` (RFC 7009). The server answers 200 even for unknown tokens.
    package static func revoke(_ token: String, hint: String, in configuration: APIConfiguration) -> Endpoint<Void> {
        var form = [("token", token), ("token_type_hint", hint)]
        var headers = HTTPHeaders()
        addClientAuthentication(to: &form, headers: &headers, configuration: configuration)
        var endpoint = Endpoint<Void>(method: .post, path: configuration.revokePath, headers: headers,
                                      body: .form(form), authorization: .none, decode: { _ in })
        endpoint.followsRedirects = false
        endpoint.mapError = revocationRefusal
        return endpoint
    }

    /// A revocation endpoint's refusal (RFC 7009 §2.2.1: an RFC 6749 §5.2 error, for example
    /// `invalid_client` for a public client the provider will not revoke for) as the provider's
    /// refusal with its error, never as the session's expiry that a 401 means elsewhere; a 5xx or
    /// a 429 as the server's failure.
    @Sendable package static func revocationRefusal(_ response: HTTPResponse) -> RiderError {
        guard (400..<500).contains(response.status), response.status != 429 else {
            return ProblemMapping.error(for: response)
        }
        let oauth = try? JSONDecoder().decode(OAuthErrorDTO.self, from: response.body)
        let said = [oauth.map { ProblemMapping.clip($0.error) }, oauth?.errorDescription.map(ProblemMapping.clip)]
            .compactMap { $0 }.joined(separator: ": ")
        return RiderError.server(status: response.status, detail: said.isEmpty ? nil : said)
    }

    /// `POST /auth/register`.
    package static func register(_ registration: Registration) throws -> Endpoint<UserID> {
        Endpoint(
            method: .post, path: "/auth/register", body: try .json(RegistrationDTO(registration)),
            authorization: .none,
            decode: { response in
                UserID(try ContractCoding.decode(RegisteredDTO.self, from: response.body, what: "the registration answer").id)
            })
    }

    /// `GET {mePath}`: the signed-in user.
    package static func me(in configuration: APIConfiguration) -> Endpoint<User> {
        Endpoint(method: .get, path: configuration.mePath, authorization: .bearer, decode: { response in
            try ContractCoding.decode(UserDTO.self, from: response.body, what: "the current user").toDomain()
        })
    }

    static func tokenEndpoint(
        form: [(String, String)], grant: TokenErrorMapping.Grant, in configuration: APIConfiguration
    ) -> Endpoint<TokenGrant> {
        var form = form
        addResource(to: &form, configuration: configuration)
        var headers = HTTPHeaders()
        headers["Cache-Control"] = "no-store"
        addClientAuthentication(to: &form, headers: &headers, configuration: configuration)
        var endpoint = Endpoint<TokenGrant>(
            method: .post, path: configuration.tokenPath, headers: headers, body: .form(form),
            authorization: .none,
            decode: { response in
                try ContractCoding.decode(TokenResponseDTO.self, from: response.body, what: "the token response")
                    .toGrant(serverDate: response.headers["Date"].flatMap(HTTPDate.parse))
            },
            mapError: { TokenErrorMapping.error(for: $0, grant: grant) })
        // The form holds a password or refresh token and maybe the client secret.
        endpoint.followsRedirects = false
        return endpoint
    }

    /// The client's authentication, as `configuration` says, added to one request: RFC 6749
    /// §2.3.1's Basic authentication with form-encoded id and secret, or both in the body; a
    /// public client (no secret, or `none`) just names itself with `client_id`; `private_key_jwt`
    /// (RFC 7523 §2.2) sends the assertion the authorization server signed for this request —
    /// or, without one, nothing but `client_id`, which the provider then refuses as it should.
    static func addClientAuthentication(
        to form: inout [(String, String)], headers: inout HTTPHeaders, configuration: APIConfiguration
    ) {
        guard let clientID = configuration.clientID else { return }
        switch (configuration.clientAuthentication, configuration.clientSecret) {
        case (.privateKeyJWT, _):
            form.append(("client_id", clientID))
            if let assertion = configuration.clientAssertion {
                form.append(("client_assertion_type", Self.jwtBearerAssertionType))
                form.append(("client_assertion", assertion))
            }
        case (.basic, let secret?):
            AuthorizationHeader.clientSecretBasic(clientID: clientID, secret: secret).apply(to: &headers)
        case (.requestBody, let secret?):
            form.append(("client_id", clientID))
            form.append(("client_secret", secret))
        case (.none, _), (.basic, nil), (.requestBody, nil):
            form.append(("client_id", clientID))
        }
    }

    /// RFC 8707's `resource`, when the configuration names the protected resource the tokens are
    /// for: on token requests of every grant, device authorization and (through the
    /// authorization request) pushed requests.
    static func addResource(to form: inout [(String, String)], configuration: APIConfiguration) {
        if let resource = configuration.resource { form.append(("resource", resource.absoluteString)) }
    }

    /// RFC 7523 §2.2's `client_assertion_type`.
    package static let jwtBearerAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
}

// MARK: - Riders

extension API {
    /// `GET /riders/me`, with the profile's entity tag.
    package static var myRider: Endpoint<Rider> {
        Endpoint(method: .get, path: "/riders/me", authorization: .bearer, decode: decodeRider)
    }

    /// `PATCH /riders/me` as a JSON merge patch, conditional on `entityTag` when given.
    package static func updateMyRider(_ patch: RiderPatch, ifMatch entityTag: EntityTag?) throws -> Endpoint<Rider> {
        var headers = HTTPHeaders()
        if let entityTag { headers["If-Match"] = entityTag.rawValue }
        // The next edit is conditional on the new tag, so an answer without one is unusable.
        return Endpoint(
            method: .patch, path: "/riders/me", headers: headers,
            body: try .json(RiderPatchDTO(patch: patch), contentType: "application/merge-patch+json"),
            authorization: .bearer, decode: decodeRider).requiring("ETag")
    }

    @Sendable static func decodeRider(_ response: HTTPResponse) throws -> Rider {
        let tag = response.headers["ETag"].map(EntityTag.init(rawValue:))
        return try ContractCoding.decode(RiderDTO.self, from: response.body, what: "the rider profile").toDomain(entityTag: tag)
    }
}

// MARK: - Users

extension API {
    /// `GET /users/search?q=&page=&limit=`.
    package static func searchUsers(_ query: String, page: PageRequest) -> Endpoint<UserPage> {
        Endpoint(method: .get, path: "/users/search",
                 query: [("q", query), ("page", String(page.page)), ("limit", String(page.limit))],
                 authorization: .bearer, decode: decodeUserPage)
    }

    /// `GET /users?page=&limit=`, ordered by id.
    package static func listUsers(page: PageRequest) -> Endpoint<UserPage> {
        Endpoint(method: .get, path: "/users",
                 query: [("page", String(page.page)), ("limit", String(page.limit))],
                 authorization: .bearer, decode: decodeUserPage)
    }

    /// `GET /users/{id}`.
    package static func user(_ id: UserID) -> Endpoint<User> {
        Endpoint(method: .get, path: userPath(id), authorization: .bearer, decode: { response in
            try ContractCoding.decode(UserDTO.self, from: response.body, what: "the user").toDomain()
        })
    }

    /// `GET /users/{id}` with `If-None-Match` when `entityTag` is given: a `304` answer means the
    /// cached copy is still current.
    package static func user(_ id: UserID, ifNoneMatch entityTag: EntityTag?) -> Endpoint<ConditionalResponse<User>> {
        var headers = HTTPHeaders()
        if let entityTag { headers["If-None-Match"] = entityTag.rawValue }
        var endpoint = Endpoint<ConditionalResponse<User>>(
            method: .get, path: userPath(id), headers: headers, authorization: .bearer,
            decode: { response in
                guard response.status != 304 else { return .notModified }
                let user = try ContractCoding.decode(UserDTO.self, from: response.body, what: "the user").toDomain()
                return .modified(user, entityTag: response.headers["ETag"].map(EntityTag.init(rawValue:)))
            })
        endpoint.alsoDecodes = entityTag == nil ? [] : [304]
        return endpoint
    }

    private static func userPath(_ id: UserID) -> String {
        // A dot segment would climb out of /users/; GetUser refuses one, and this keeps it inert.
        let allowed = CharacterSet.urlPathAllowed.subtracting(id.rawValue.allSatisfy { $0 == "." } ? ["/", "."] : ["/"])
        let escaped = id.rawValue.addingPercentEncoding(withAllowedCharacters: allowed) ?? id.rawValue
        return "/users/\(escaped)"
    }

    @Sendable private static func decodeUserPage(_ response: HTTPResponse) throws -> UserPage {
        try ContractCoding.decode(UserPageDTO.self, from: response.body, what: "the page of users").toDomain()
    }
}

import Foundation
import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// Where clients register (RFC 7591 §3), named as `registration_endpoint` in both metadata
    /// documents while registration is open.
    static let registrationPath = "/oauth2/register"
    /// The longest `client_name` taken, in characters.
    static let maximumClientNameLength = 200
    /// The most redirect URIs one registration may list.
    static let maximumRedirectURIs = 10

    /// `POST /oauth2/register` (RFC 7591 §3.1): registers a public native client — the kind a
    /// command-line or desktop program is (RFC 8252) — and answers `201` with its new `client_id`
    /// and the metadata as registered (§3.2.1). Open to anyone, as the MCP authorization spec
    /// expects of a server that clients find from a resource's address, so it accepts only what
    /// cannot be abused: `token_endpoint_auth_method` `none` (when left out, `none` is what is
    /// registered, RFC 7591 §3.2.1 letting the server substitute a value: no secret is ever
    /// issued), loopback `http` redirect URIs (RFC 8252 §7.3; matched ignoring the port when
    /// used), the grants `authorization_code`, `refresh_token` and the device code grant, and
    /// `response_types` `code`. Unknown metadata is ignored (§2). Errors are §3.2.2's JSON:
    /// `invalid_redirect_uri` or `invalid_client_metadata` (`400`); past the registration limit,
    /// `temporarily_unavailable` (`429`). With registration off (`--registration off`), `404`.
    func registerClient(_ request: Request) async throws -> Response {
        guard clientRegistration == .open else {
            throw APIProblem.notFound("There is no resource at \(Self.registrationPath): this server takes no client "
                + "registrations (--registration off).")
        }
        do {
            let object: [String: JSONValue]
            do {
                object = try await jsonObject(of: request, mediaTypes: [Responses.json])
            } catch let problem as APIProblem {
                throw TokenEndpointError.invalidClientMetadata(
                    "the body must be a JSON object of client metadata sent as application/json: \(problem.detail)")
            }
            let metadata = try ClientMetadata(object)
            guard let client = await store.registerClient(name: metadata.name, redirectURIs: metadata.redirectURIs,
                                                          grantTypes: metadata.grantTypes, scope: metadata.scope) else {
                var response = Responses.tokenError(TokenEndpointError(
                    code: "temporarily_unavailable",
                    description: "this server has registered as many clients as it takes (\(store.registrationLimit), "
                        + "rider-server --registration-limit); a restart forgets them"))
                response.status = .tooManyRequests
                return response
            }
            return try Responses.json(RegisteredClientBody(client), status: .created, headers: Self.noStore)
        } catch let error as TokenEndpointError {
            return Responses.tokenError(error)
        }
    }
}

/// A registration request's metadata (RFC 7591 §2), checked against what this server registers.
struct ClientMetadata: Sendable {
    let name: String?
    let redirectURIs: [String]
    let grantTypes: [String]
    let scope: String?

    /// - Throws: `invalid_redirect_uri` or `invalid_client_metadata`, naming the field.
    init(_ object: [String: JSONValue]) throws(TokenEndpointError) {
        func strings(_ field: String) throws(TokenEndpointError) -> [String]? {
            switch object[field] {
            case nil, .null?: return nil
            case .array(let items)?:
                var result: [String] = []
                for item in items {
                    guard case .string(let text) = item else {
                        throw .invalidClientMetadata("\(field) must be an array of strings")
                    }
                    if !result.contains(text) { result.append(text) }
                }
                return result
            default: throw .invalidClientMetadata("\(field) must be an array of strings")
            }
        }
        func string(_ field: String) throws(TokenEndpointError) -> String? {
            switch object[field] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw .invalidClientMetadata("\(field) must be a string")
            }
        }
        switch try string("token_endpoint_auth_method") {
        case nil, "none"?: break
        case let method?:
            throw .invalidClientMetadata("token_endpoint_auth_method must be none: this server registers only public "
                + "clients, which hold no secret (RFC 8252 §8.4); \(method) is not taken")
        }
        // RFC 7591 §2: authorization_code when left out.
        let grantTypes = try strings("grant_types") ?? ["authorization_code"]
        guard !grantTypes.isEmpty else { throw .invalidClientMetadata("grant_types must name at least one grant") }
        if let other = grantTypes.first(where: { !RegisteredClient.grantTypes.contains($0) }) {
            throw .invalidClientMetadata("grant_types may hold only "
                + RegisteredClient.grantTypes.joined(separator: ", ") + ", not \(other)")
        }
        let code = grantTypes.contains("authorization_code")
        if let responseTypes = try strings("response_types") {
            if let other = responseTypes.first(where: { $0 != "code" }) {
                throw .invalidClientMetadata("response_types may hold only code, not \(other)")
            }
            // RFC 7591 §2.1: the two lists must agree.
            guard responseTypes.contains("code") == code else {
                throw .invalidClientMetadata(code ? "the authorization_code grant needs the response type code"
                                                  : "the response type code needs the authorization_code grant")
            }
        }
        let redirectURIs = try strings("redirect_uris") ?? []
        guard redirectURIs.count <= ReferenceResponder.maximumRedirectURIs else {
            throw .invalidRedirectURI("at most \(ReferenceResponder.maximumRedirectURIs) redirect URIs may be registered")
        }
        if let refused = redirectURIs.first(where: { $0.utf8.count > 2000 || !ReferenceResponder.isLoopbackRedirect($0) }) {
            throw .invalidRedirectURI("\(refused.prefix(200)) is not a loopback redirect URI: this server registers "
                + "only http://127.0.0.1[:port]/path and http://[::1][:port]/path, without a fragment (RFC 8252 §7.3)")
        }
        guard !code || !redirectURIs.isEmpty else {
            throw .invalidRedirectURI("the authorization_code grant needs at least one redirect URI")
        }
        let name = try string("client_name")
        if let name {
            guard !name.isEmpty, name.count <= ReferenceResponder.maximumClientNameLength,
                  DisplaySafeText.problem(in: name) == nil else {
                throw .invalidClientMetadata("client_name must be 1 to \(ReferenceResponder.maximumClientNameLength) "
                    + "characters without control characters or bidirectional overrides")
            }
        }
        let scope: String?
        do { scope = try ReferenceResponder.scope(try string("scope")) } catch {
            throw .invalidClientMetadata("scope must be space-separated printable ASCII tokens")
        }
        self.name = name
        self.redirectURIs = redirectURIs
        self.grantTypes = grantTypes
        self.scope = scope
    }
}

/// RFC 7591 §3.2.1's answer: the client id and the metadata as registered.
struct RegisteredClientBody: Encodable, Sendable {
    let clientID: String
    let clientIDIssuedAt: Int
    let clientName: String?
    let redirectURIs: [String]
    let grantTypes: [String]
    let responseTypes: [String]
    let tokenEndpointAuthMethod = "none"
    let scope: String?

    init(_ client: RegisteredClient) {
        clientID = client.id
        clientIDIssuedAt = Int(client.issuedAt.timeIntervalSince1970)
        clientName = client.name
        redirectURIs = client.redirectURIs
        grantTypes = client.grantTypes
        responseTypes = client.responseTypes
        scope = client.scope
    }

    enum CodingKeys: String, CodingKey {
        case scope
        case clientID = "client_id"
        case clientIDIssuedAt = "client_id_issued_at"
        case clientName = "client_name"
        case redirectURIs = "redirect_uris"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
    }
}

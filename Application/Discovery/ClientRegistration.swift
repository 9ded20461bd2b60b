import Foundation
import RiderDomain

/// Decides which client RiderKit signs in as at an authorization server, registering one when it
/// must (the MCP authorization specification of 2025-11-25, §"Client Registration Approaches"):
///
/// 1. A configured client id wins: nothing is asked or kept.
/// 2. Else a Client ID Metadata Document: the configured https URL
///    (``Configuration/clientIDMetadataURL``) is the `client_id` itself, when the server
///    advertises `client_id_metadata_document_supported`. The server fetches the document; what
///    it must contain is in docs/registration.md.
/// 3. Else the registration kept for the issuer by the ``ClientRegistrationStore``, from an earlier
///    process — unless it no longer fits: its redirect URIs are not those asked for now, or it
///    needs a client secret that is not at hand (not kept across processes) or has expired.
/// 4. Else dynamic registration (RFC 7591) at the server's `registration_endpoint`: one `POST`
///    of JSON for a public native client (`token_endpoint_auth_method: none`, loopback redirect
///    URIs per RFC 8252 §7.3, `response_types: [code]`, `grant_types: [authorization_code,
///    refresh_token]` plus the device code grant only when asked for and listed by the server).
///    A `400` to a request with the device grant is asked again once without it: some servers
///    (django-oauth-toolkit) register one grant besides `refresh_token` per client. The answer is
///    kept for the issuer.
///
/// The registration endpoint is held to the token endpoint's rules: https, or plain http to a
/// loopback address; no redirect is followed (the request goes with `followsRedirects: false`
/// and a 3xx is refused); at most ``Configuration/maximumAnswerSize`` bytes are read. Server text
/// in errors is clipped to one line without control characters.
///
/// **Whether the client may receive id_tokens** (``RegisteredClient/mayReceiveIDTokens``, so
/// whether a sign-in may ask for `openid`): id_tokens come from the authorization code flow, so
/// the registration must hold the `authorization_code` grant and the `code` response type; then,
/// when the answer names a `scope`, `openid` must be in it (the server limits the client to it);
/// when it names none, the server must be an OpenID provider that can be checked — its metadata
/// names a `jwks_uri`. A configured client or a metadata document follows the second half only.
///
/// Each refusal is a `RiderError` whose underlying error is a ``Refusal``.
package struct ClientRegistration: Sendable {
    /// How the program names itself to the server (RFC 7591 §2).
    package struct Program: Hashable, Sendable {
        /// `client_name`, shown on the server's consent page.
        package var clientName: String
        /// `software_id`: the same for every installation of the program.
        package var softwareID: String?
        /// `software_version`.
        package var softwareVersion: String?

        package init(clientName: String, softwareID: String? = nil, softwareVersion: String? = nil) {
            self.clientName = clientName
            self.softwareID = softwareID
            self.softwareVersion = softwareVersion
        }
    }

    /// What is configured and what a registration asks for.
    package struct Configuration: Hashable, Sendable {
        /// The configured client id, which wins over everything else.
        package var clientID: String?
        /// The configured client secret, with ``clientID`` only.
        package var clientSecret: String?
        /// The https URL of the client's metadata document, used as the `client_id` where the
        /// server advertises `client_id_metadata_document_supported`.
        package var clientIDMetadataURL: URL?
        /// How the program names itself.
        package var program: Program
        /// The redirect URIs' path (RFC 8252 §7.3: the loopback port is chosen at each sign-in,
        /// and servers must accept any).
        package var redirectPath = "/callback"
        /// The loopback hosts registered, one redirect URI each.
        package var redirectHosts = ["127.0.0.1", "[::1]"]
        /// A fixed port for the redirect URIs, for servers that compare them port and all;
        /// `nil` for none (RFC 8252's way).
        package var redirectPort: Int?
        /// Whether to ask for the device code grant (RFC 8628) too, where the server lists it.
        package var wantsDeviceCode = false
        /// How long the registration request may take.
        package var requestTimeout: TimeInterval = 15
        /// The largest registration answer read, in bytes.
        package var maximumAnswerSize = 64 * 1024

        /// - Parameters:
        ///   - clientID: a configured client id, if any.
        ///   - clientSecret: its secret, if any.
        ///   - clientIDMetadataURL: the client's metadata document URL, if any.
        ///   - program: how the program names itself.
        /// - Throws: `RiderError.invalidConfiguration(_:)` when `clientIDMetadataURL` is not an
        ///   https URL with a path, or has a user name, password or fragment.
        package init(clientID: String? = nil, clientSecret: String? = nil, clientIDMetadataURL: URL? = nil,
                     program: Program) throws {
            if let url = clientIDMetadataURL {
                guard url.scheme?.lowercased() == "https", url.host?.isEmpty == false, url.user == nil,
                      url.password == nil, url.fragment == nil, !url.path.isEmpty, url.path != "/" else {
                    throw RiderError.invalidConfiguration("the client id metadata document URL must be an https URL "
                        + "with a path and without user name, password or fragment, such as "
                        + "https://example.com/rider/client-metadata.json")
                }
            }
            self.clientID = clientID.flatMap { $0.isEmpty ? nil : $0 }
            self.clientSecret = clientSecret
            self.clientIDMetadataURL = clientIDMetadataURL
            self.program = program
        }

        /// The redirect URIs registered: one per host, `http://<host>[:port]<path>`.
        package var redirectURIs: [String] {
            let path = redirectPath.hasPrefix("/") ? redirectPath : "/" + redirectPath
            return redirectHosts.map { "http://\($0)\(redirectPort.map { ":\($0)" } ?? "")\(path)" }
        }
    }

    /// Why no client could be had; the `underlying` of the `RiderError` thrown.
    package enum Refusal: Error, Hashable, Sendable {
        /// Nothing is configured and the server names no `registration_endpoint`.
        case noRegistrationEndpoint
        /// The registration endpoint is neither https nor http to a loopback address, or has a
        /// user name, password or fragment.
        case unusableEndpoint
        /// The registration was answered with a redirect, which is never followed.
        case redirect
        /// The server refused the registration (RFC 7591 §3.2.2), with its `error` and
        /// `error_description` (clipped).
        case refused(error: String, description: String?)
        /// The answer names no `client_id`.
        case noClientID
        /// The answer is larger than ``Configuration/maximumAnswerSize``.
        case answerTooLarge
        /// The server registered a way to authenticate RiderKit cannot use (such as a secret
        /// method without a secret, or `private_key_jwt`).
        case unusableAuthentication(method: String)
    }

    /// The device authorization grant's `grant_type` (RFC 8628 §3.4).
    package static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"

    package let configuration: Configuration
    private let transport: any HTTPTransport
    private let store: any ClientRegistrationStore
    private let clock: any Clock

    /// - Parameters:
    ///   - configuration: what is configured and asked for.
    ///   - transport: sends the registration request, without credentials; it must not follow
    ///     redirects itself (the request says so too).
    ///   - store: where registrations are kept, per issuer.
    ///   - clock: stamps a registration whose server did not, and tells whether a secret expired.
    package init(configuration: Configuration, transport: any HTTPTransport, store: any ClientRegistrationStore,
                 clock: any Clock) {
        self.configuration = configuration
        self.transport = transport
        self.store = store
        self.clock = clock
    }

    /// The client to sign in with at the authorization server `metadata` describes: configured,
    /// a metadata document, kept, or registered now (and kept).
    /// - Parameter metadata: the authorization server's metadata, already checked against its issuer.
    /// - Returns: the client.
    /// - Throws: `RiderError.invalidConfiguration(_:)` (no registration endpoint, an unusable one,
    ///   a redirect, a refused registration) or `RiderError.malformedResponse(_:)` (no client id,
    ///   an answer too large or not JSON), each with its ``Refusal``; `RiderError.storage(_:)` from
    ///   the store; network errors as they come.
    package func client(for metadata: ProviderMetadata) async throws -> RegisteredClient {
        let openIDProvider = metadata.endpoints.jwks != nil
        if let clientID = configuration.clientID {
            return RegisteredClient(issuer: metadata.issuer, clientID: clientID, clientSecret: configuration.clientSecret,
                                    redirectURIs: configuration.redirectURIs,
                                    tokenEndpointAuthMethod: configuration.clientSecret == nil ? "none" : "client_secret_basic",
                                    mayReceiveIDTokens: openIDProvider, origin: .configured)
        }
        if let document = configuration.clientIDMetadataURL, metadata.clientIDMetadataDocumentSupported == true {
            return RegisteredClient(issuer: metadata.issuer, clientID: document.absoluteString,
                                    redirectURIs: configuration.redirectURIs, mayReceiveIDTokens: openIDProvider,
                                    origin: .metadataDocument)
        }
        if let kept = try await store.load(issuer: metadata.issuer), isUsable(kept) {
            return kept
        }
        let client = try await register(at: metadata)
        try await store.save(client)
        return client
    }

    /// The client this program signs in with at `metadata`'s server without registering now:
    /// configured, a metadata document, or kept from an earlier registration; `nil` when the next
    /// sign-in would register (for showing, as `rider provider show` does).
    /// - Throws: `RiderError.storage(_:)` from the store.
    package func known(for metadata: ProviderMetadata) async throws -> RegisteredClient? {
        if let clientID = configuration.clientID {
            return RegisteredClient(issuer: metadata.issuer, clientID: clientID, clientSecret: configuration.clientSecret,
                                    redirectURIs: configuration.redirectURIs,
                                    tokenEndpointAuthMethod: configuration.clientSecret == nil ? "none" : "client_secret_basic",
                                    mayReceiveIDTokens: metadata.endpoints.jwks != nil, origin: .configured)
        }
        if let document = configuration.clientIDMetadataURL, metadata.clientIDMetadataDocumentSupported == true {
            return RegisteredClient(issuer: metadata.issuer, clientID: document.absoluteString,
                                    redirectURIs: configuration.redirectURIs,
                                    mayReceiveIDTokens: metadata.endpoints.jwks != nil, origin: .metadataDocument)
        }
        guard let kept = try await store.load(issuer: metadata.issuer), isUsable(kept) else { return nil }
        return kept
    }

    /// Forgets the registration kept for `issuer`, so the next ``client(for:)`` registers again:
    /// for when the server answers `invalid_client` to a client it registered.
    /// - Parameter issuer: the issuer identifier.
    /// - Throws: `RiderError.storage(_:)` from the store.
    package func forget(issuer: String) async throws {
        try await store.remove(issuer: issuer)
    }

    /// The client to use after the server answered `invalid_client` for `rejected` (it no longer
    /// knows the client): for a dynamically registered client, the one another process registered
    /// meanwhile when the kept registration has changed, else a new registration (the kept one
    /// forgotten). Call it once per rejection: a client refused right after registering is the
    /// server's problem, not a stale registration.
    /// - Parameters:
    ///   - rejected: the client the server refused.
    ///   - metadata: the authorization server's metadata.
    /// - Returns: the client to try once more, or `nil` when `rejected` was configured or a
    ///   metadata document, which registering again cannot mend.
    /// - Throws: what ``client(for:)`` throws.
    package func replacement(for rejected: RegisteredClient, at metadata: ProviderMetadata) async throws -> RegisteredClient? {
        guard rejected.origin == .dynamic else { return nil }
        if let kept = try await store.load(issuer: metadata.issuer), kept.clientID != rejected.clientID, isUsable(kept) {
            return kept
        }
        try await forget(issuer: metadata.issuer)
        return try await client(for: metadata)
    }

    /// Whether a kept registration still fits: the redirect URIs asked for now, and a secret at
    /// hand and in date when the client needs one.
    private func isUsable(_ kept: RegisteredClient) -> Bool {
        guard Set(configuration.redirectURIs).isSubset(of: kept.redirectURIs) else { return false }
        guard kept.needsSecret else { return true }
        return kept.clientSecret != nil && !kept.secretHasExpired(at: clock.now)
    }

    // MARK: - RFC 7591

    /// Registers a client at `metadata`'s registration endpoint, without the device grant when the
    /// server refuses the combination.
    private func register(at metadata: ProviderMetadata) async throws -> RegisteredClient {
        guard let endpoint = metadata.registrationEndpoint else {
            throw refusal(.noRegistrationEndpoint, "the authorization server \(metadata.issuer) offers no dynamic client "
                + "registration (its metadata names no registration_endpoint"
                + (configuration.clientIDMetadataURL == nil ? "" : " and it does not take client id metadata documents")
                + "); configure a client id registered there")
        }
        do {
            try APIConfiguration.validate(endpoint)
            guard endpoint.fragment == nil else { throw RiderError.invalidConfiguration("it has a fragment") }
        } catch {
            throw refusal(.unusableEndpoint, "the authorization server \(metadata.issuer)'s registration_endpoint is not "
                + "usable: it must be https (http only to a loopback address), without user name, password or fragment")
        }
        var grants = ["authorization_code", "refresh_token"]
        let asksDeviceCode = configuration.wantsDeviceCode
            && (metadata.grantTypesSupported?.contains(Self.deviceCodeGrant) ?? false)
        if asksDeviceCode { grants.append(Self.deviceCodeGrant) }
        var response = try await send(request(to: endpoint, grants: grants))
        if asksDeviceCode, response.status == 400 {
            // django-oauth-toolkit registers one grant besides refresh_token per client: a browser
            // client is worth more than a device one, so the device grant goes.
            grants.removeLast()
            response = try await send(request(to: endpoint, grants: grants))
        }
        return try registered(from: response, at: endpoint, asked: grants, metadata: metadata)
    }

    /// The RFC 7591 §2 request for a public native client.
    private func request(to endpoint: URL, grants: [String]) throws -> HTTPRequest {
        let body = RegistrationRequestDTO(
            redirectURIs: configuration.redirectURIs, tokenEndpointAuthMethod: "none", grantTypes: grants,
            responseTypes: ["code"], clientName: configuration.program.clientName,
            softwareID: configuration.program.softwareID, softwareVersion: configuration.program.softwareVersion)
        return HTTPRequest(method: .post, url: endpoint,
                           headers: ["Content-Type": "application/json", "Accept": "application/json"],
                           body: try ContractCoding.encode(body), timeout: configuration.requestTimeout,
                           followsRedirects: false)
    }

    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await transport.send(request)
    }

    /// The registration in `response`, checked.
    private func registered(from response: HTTPResponse, at endpoint: URL, asked grants: [String],
                            metadata: ProviderMetadata) throws -> RegisteredClient {
        if (300..<400).contains(response.status) {
            throw refusal(.redirect, "the registration endpoint \(endpoint.absoluteString) answered with a redirect; "
                + "RiderKit registers only where the authorization server's metadata says")
        }
        guard response.body.count <= configuration.maximumAnswerSize else {
            throw RiderError.malformedResponse("the registration answer of \(endpoint.absoluteString) is larger than "
                + "\(configuration.maximumAnswerSize) bytes", underlying: Refusal.answerTooLarge)
        }
        guard response.status == 201 || response.status == 200 else {
            if (400..<500).contains(response.status), response.status != 429,
               let answer = try? JSONDecoder().decode(OAuthErrorDTO.self, from: response.body) {
                let error = ProblemMapping.clip(answer.error)
                let description = answer.errorDescription.map(ProblemMapping.clip).flatMap { $0.isEmpty ? nil : $0 }
                throw refusal(.refused(error: error, description: description),
                              "the authorization server \(metadata.issuer) refused to register RiderKit's client: '\(error)'"
                                  + (description.map { " (\($0))" } ?? ""))
            }
            throw ProblemMapping.error(for: response)
        }
        let answer = try ContractCoding.decode(RegistrationResponseDTO.self, from: response.body,
                                               what: "the registration answer of \(endpoint.absoluteString)")
        guard let clientID = answer.clientID, !clientID.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw RiderError.malformedResponse("the registration answer of \(endpoint.absoluteString) names no client_id",
                                               underlying: Refusal.noClientID)
        }
        // RFC 7591 §3.2.1: the answer holds every member registered; one it leaves out is taken as
        // registered the way it was asked.
        let method = answer.tokenEndpointAuthMethod ?? "none"
        let secret = answer.clientSecret.flatMap { $0.isEmpty ? nil : $0 }
        guard method == "none" || (["client_secret_basic", "client_secret_post"].contains(method) && secret != nil) else {
            throw refusal(.unusableAuthentication(method: ProblemMapping.clip(method)),
                          "the authorization server \(metadata.issuer) registered RiderKit's client with the token "
                              + "endpoint authentication '\(ProblemMapping.clip(method))'"
                              + (secret == nil ? " but issued no secret" : "") + ", which RiderKit cannot use")
        }
        let grantTypes = answer.grantTypes ?? grants
        let responseTypes = answer.responseTypes ?? ["code"]
        let codeFlow = grantTypes.contains("authorization_code") && responseTypes.contains("code")
        let openID = answer.scope.map { $0.split(separator: " ").contains("openid") } ?? (metadata.endpoints.jwks != nil)
        return RegisteredClient(
            issuer: metadata.issuer, clientID: clientID, clientSecret: secret,
            clientSecretExpiresAt: answer.clientSecretExpiresAt.flatMap { $0 > 0 ? Date(timeIntervalSince1970: $0) : nil },
            issuedAt: answer.clientIDIssuedAt.map { Date(timeIntervalSince1970: $0) } ?? clock.now,
            grantTypes: grantTypes, redirectURIs: answer.redirectURIs ?? configuration.redirectURIs,
            responseTypes: responseTypes, tokenEndpointAuthMethod: method, scope: answer.scope,
            mayReceiveIDTokens: codeFlow && openID, origin: .dynamic)
    }

    private func refusal(_ reason: Refusal, _ message: String) -> RiderError {
        RiderError.invalidConfiguration(message, underlying: reason)
    }
}

extension RegisteredClient {
    /// How the token endpoint is to be told who the client is, from the registered method.
    package var clientAuthentication: APIConfiguration.ClientAuthentication {
        switch tokenEndpointAuthMethod {
        case "client_secret_post": .requestBody
        case "client_secret_basic": .basic
        default: .none
        }
    }
}

/// RFC 7591 §2's client metadata as RiderKit sends it.
struct RegistrationRequestDTO: Encodable {
    var redirectURIs: [String]
    var tokenEndpointAuthMethod: String
    var grantTypes: [String]
    var responseTypes: [String]
    var clientName: String
    var softwareID: String?
    var softwareVersion: String?

    enum CodingKeys: String, CodingKey {
        case redirectURIs = "redirect_uris"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case clientName = "client_name"
        case softwareID = "software_id"
        case softwareVersion = "software_version"
    }
}

/// RFC 7591 §3.2.1's answer: only the members RiderKit reads. Numbers may come as JSON numbers
/// or numeric strings, and the authentication method as a string or a one-method array, since
/// servers differ.
struct RegistrationResponseDTO: Decodable {
    var clientID: String?
    var clientSecret: String?
    var clientIDIssuedAt: TimeInterval?
    var clientSecretExpiresAt: TimeInterval?
    var redirectURIs: [String]?
    var grantTypes: [String]?
    var responseTypes: [String]?
    var tokenEndpointAuthMethod: String?
    var scope: String?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case clientIDIssuedAt = "client_id_issued_at"
        case clientSecretExpiresAt = "client_secret_expires_at"
        case redirectURIs = "redirect_uris"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case scope
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func number(_ key: CodingKeys) -> TimeInterval? {
            if let value = try? container.decodeIfPresent(Double.self, forKey: key) { return value }
            return (try? container.decodeIfPresent(String.self, forKey: key)).flatMap { $0.flatMap(TimeInterval.init) }
        }
        clientID = try container.decodeIfPresent(String.self, forKey: .clientID)
        clientSecret = try container.decodeIfPresent(String.self, forKey: .clientSecret)
        clientIDIssuedAt = number(.clientIDIssuedAt)
        clientSecretExpiresAt = number(.clientSecretExpiresAt)
        redirectURIs = try container.decodeIfPresent([String].self, forKey: .redirectURIs)
        grantTypes = try container.decodeIfPresent([String].self, forKey: .grantTypes)
        responseTypes = try container.decodeIfPresent([String].self, forKey: .responseTypes)
        // Glewlwyd 2.7.5 answers the method as an array (`["none"]`), not RFC 7591's string.
        if let methods = try? container.decodeIfPresent([String].self, forKey: .tokenEndpointAuthMethod) {
            tokenEndpointAuthMethod = methods.contains("none") ? "none" : methods.first
        } else {
            tokenEndpointAuthMethod = try container.decodeIfPresent(String.self, forKey: .tokenEndpointAuthMethod)
        }
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
    }
}

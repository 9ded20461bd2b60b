import Hummingbird
import HTTPTypes
import Logging

/// Answers every request: counts it, routes it, and turns thrown problems into problem details.
///
/// A hand-written dispatcher rather than Hummingbird's `Router`, because the contract wants
/// problem bodies for unknown paths and `405` with `Allow` for known paths, which a route table
/// gives directly.
struct ReferenceResponder: HTTPResponder {
    typealias Context = ReferenceRequestContext

    let store: ReferenceStore
    let maximumBodySize: Int
    /// Largest accepted avatar picture; its multipart body may be a little larger.
    let maximumAvatarSize: Int
    /// Serve `/_test/*`, and then only to loopback `Host`s (``ReferenceServerConfiguration/enableTestHooks``).
    let testHooks: Bool
    /// Whether the token endpoint takes the password grant (`--no-password-grant` turns it off).
    let passwordGrant: Bool
    /// Signs id_tokens and publishes the key set.
    let idTokens: IDTokenSigner
    /// Whether DPoP proofs are taken, and required at the token endpoint (`--dpop`).
    let dpop: DPoPMode
    /// Checks DPoP proofs and remembers their `jti`s.
    let proofs: DPoPProofVerifier
    /// Whether `/oauth2/par` takes pushed authorization requests, and whether the authorization
    /// endpoint takes nothing else (`--par`).
    let pushedAuthorization: PushedAuthorizationMode
    /// The public key (PEM) ``KeyOAuthClient`` signs its `private_key_jwt` assertions with;
    /// `nil`: no such client (`--client-public-key`).
    let clientPublicKeyPEM: String?
    /// The clients whose token requests must carry a DPoP proof, with DPoP on
    /// (`--dpop-required-client`): FAPI 2.0's per-client sender constraint.
    let dpopRequiredClients: Set<String>
    /// Whether `/oauth2/register` takes dynamic client registrations (`--registration`).
    let clientRegistration: ClientRegistrationMode
    /// Whether the metadata documents go out with `Cache-Control: no-store`
    /// (``ReferenceServerConfiguration/metadataNoStore``).
    let metadataNoStore: Bool
    let logger: Logger

    func respond(to request: Request, context: ReferenceRequestContext) async throws -> Response {
        let path = request.uri.path
        if testHooks, !LoopbackAuthority.accepts(request.head.authority) {
            // Before counting or routing: a request under a foreign name gets nothing else.
            logger.info("\(request.method.rawValue) \(path) 421 (Host is not loopback)")
            return Responses.problem(.misdirected())
        }
        if !path.hasPrefix("/_test/") {
            await store.recordRequest(from: ClientIdentity(userAgent: request.headers[.userAgent],
                                                           acceptLanguage: request.headers[.acceptLanguage]))
        }
        var response: Response
        do {
            response = try await dispatch(request, path: path, client: context.clientAddress ?? "unknown")
        } catch let problem as APIProblem {
            response = Responses.problem(problem)
        } catch {
            logger.error("request failed", metadata: ["path": "\(path)", "error": "\(error)"])
            response = Responses.problem(.internalError())
        }
        if proofs.requiresNonces, let nonce = proofs.currentNonce(), let name = HTTPField.Name.dpopNonce {
            // On every answer, so a client learns a rotated nonce without a refusal first.
            response.headers[name] = nonce
        }
        if request.method == .head { response = response.createHeadResponse() }
        // Method, path and status only: headers and bodies may hold tokens and passwords.
        logger.info("\(request.method.rawValue) \(path) \(response.status.code)")
        return response
    }

    private func dispatch(_ request: Request, path: String, client: String) async throws -> Response {
        switch Route.match(method: request.method, path: path, testHooks: testHooks) {
        case .notFound:
            throw APIProblem.notFound("There is no resource at \(path).")
        case .methodNotAllowed(let allowed):
            throw APIProblem.methodNotAllowed(request.method, allowed: allowed)
        case .found(let route):
            return try await handle(route, request, client: client)
        }
    }

    private func handle(_ route: Route, _ request: Request, client: String) async throws -> Response {
        switch route {
        case .token: try await token(request, client: client)
        case .register: try await register(request)
        case .revoke: try await revoke(request)
        case .authMe: try await authMe(request)
        case .riderMe: try await riderMe(request)
        case .patchRiderMe: try await patchRiderMe(request)
        case .deleteRiderMe: try await deleteRiderMe(request)
        case .uploadAvatar: try await uploadAvatar(request)
        case .avatar(let id): try await avatar(id: id, request)
        case .listUsers: try await listUsers(request)
        case .searchUsers: try await searchUsers(request)
        case .user(let id): try await user(id: id, request)
        case .sports: try sports()
        case .baseLocation: try await baseLocation(request)
        case .putBaseLocation: try await putBaseLocation(request)
        case .preferences: try await preferences(request)
        case .putPreferences: try await putPreferences(request)
        case .mySports: try await mySports(request)
        case .setMySport(let id): try await setMySport(id: id, request)
        case .removeMySport(let id): try await removeMySport(id: id, request)
        case .standardToken: try await standardToken(request, client: client)
        case .deviceAuthorization: try await deviceAuthorization(request)
        case .pushedAuthorization: try await pushedAuthorization(request)
        case .clientRegistration: try await registerClient(request)
        case .devicePage: devicePage(request)
        case .deviceDecision: await deviceDecision(request, client: client)
        case .authorizationPage: await authorizationPage(request)
        case .authorizationDecision: await authorizationDecision(request, client: client)
        case .keySet: try Responses.json(await idTokens.keySet(), headers: [.cacheControl: "public, max-age=3600"])
        case .userinfo: try await userinfo(request)
        case .testRotateSigningKey: await testRotateSigningKey()
        case .testSpoilNextIDToken: try await testSpoilNextIDToken(request)
        case .openIDConfiguration, .authorizationServerMetadata:
            try await countingMetadataRequest(request) { try await providerMetadata() }
        case .protectedResourceMetadata: try await countingMetadataRequest(request) { try await protectedResourceMetadata(.api) }
        case .adminResourceMetadata: try await countingMetadataRequest(request) { try await protectedResourceMetadata(.admin) }
        case .adminStats: try await adminStats(request)
        case .testStats: try await testStats()
        case .testRedirect: try testRedirect(request)
        case .testEchoHeaders: try testEchoHeaders(request)
        case .testExpireAccessTokens: await testExpireAccessTokens()
        }
    }
}

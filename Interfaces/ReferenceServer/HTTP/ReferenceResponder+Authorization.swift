import Foundation
import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `GET /oauth2/authorize` (RFC 6749 §4.1.1): checks the request, then shows the sign-in and
    /// consent page. PKCE with S256 is required (RFC 9700 §2.1.1); a client or redirect URI it
    /// does not know gets a page, never a redirect; every other error is redirected back with
    /// `error`, `state` and `iss` (RFC 9207). With pushed authorization requests on (`--par`), a
    /// `request_uri` from `/oauth2/par` stands for the whole request; required, it is the only
    /// request taken.
    func authorizationPage(_ request: Request) async -> Response {
        guard let query = try? query(of: request) else {
            return ProviderPage.response(AuthorizationPage.problem("The address is not validly encoded."),
                                         status: .badRequest)
        }
        if let repeated = Set(query.pairs.map(\.name)).sorted().first(where: { $0 != "resource" && query.count(of: $0) > 1 }) {
            return ProviderPage.response(AuthorizationPage.problem("The parameter \(repeated) is repeated."),
                                         status: .badRequest)
        }
        if pushedAuthorization != .off, let requestURI = query["request_uri"] {
            return await pushedAuthorizationPage(query, requestURI: requestURI)
        }
        guard let clientID = query["client_id"], await isAuthorizationClient(clientID) else {
            return ProviderPage.response(AuthorizationPage.problem("The program is not registered here (unknown client_id)."),
                                         status: .badRequest)
        }
        guard let redirectURI = query["redirect_uri"], await acceptsRedirect(redirectURI, for: clientID) else {
            return ProviderPage.response(AuthorizationPage.problem(
                "The redirect_uri is not one this program registered (http://127.0.0.1 or http://[::1], any port)."),
                                         status: .badRequest)
        }
        let state = query["state"]
        func refuse(_ error: String, _ description: String) async -> Response {
            await redirect(to: redirectURI, ["error": error, "error_description": description, "state": state])
        }
        if pushedAuthorization == .required {
            return await refuse("invalid_request", "this server requires pushed authorization requests (RFC 9126): "
                + "push the request to /oauth2/par and send only client_id and request_uri here")
        }
        let checked: ReferenceStore.AuthorizationRequest
        do {
            try await requireGrant("authorization_code", for: clientID)
            checked = try Self.authorizationRequest(query, clientID: clientID, redirectURI: redirectURI,
                                                    resource: try await requestedResource(query))
        } catch {
            return await refuse(error.code, error.description)
        }
        return await showForm(for: checked)
    }

    /// Starts the wait for the person on `request` and shows the sign-in and consent page.
    private func showForm(for request: ReferenceStore.AuthorizationRequest) async -> Response {
        let id = await store.startAuthorization(request)
        return ProviderPage.response(AuthorizationPage.form(requestID: id, clientID: await clientLabel(request.clientID),
                                                            scope: request.scope),
                                     formActions: [Self.origin(of: request.redirectURI)])
    }

    /// The authorization request a pushed `request_uri` names (RFC 9126 §4): only `client_id` is
    /// read beside it, every other parameter came with the push. An unknown, expired or spent
    /// one gets a page, never a redirect: nothing says where it came from.
    private func pushedAuthorizationPage(_ query: FormFields, requestURI: String) async -> Response {
        guard let clientID = query["client_id"],
              let pushed = await store.takePushedRequest(requestURI, clientID: clientID) else {
            return ProviderPage.response(AuthorizationPage.problem(
                "This sign-in's request_uri is unknown, expired or already used. Start the sign-in again."),
                                         status: .badRequest)
        }
        return await showForm(for: pushed)
    }

    /// The checks of an authorization request's parameters (RFC 6749 §4.1.1, RFC 7636, RFC 9449
    /// §10), the same whether they came in the browser's address or were pushed (RFC 9126).
    /// - Parameter resource: The canonical resource (RFC 8707) ``requestedResource(_:)`` read.
    /// - Throws: the error to send back to the redirect URI (or in a pushed request's answer).
    static func authorizationRequest(_ fields: FormFields, clientID: String, redirectURI: String,
                                     resource: String?) throws(TokenEndpointError) -> ReferenceStore.AuthorizationRequest {
        guard fields["response_type"] == "code" else {
            throw TokenEndpointError(code: "unsupported_response_type", description: "response_type must be code")
        }
        guard let challenge = fields["code_challenge"] else {
            throw .invalidRequest("PKCE is required: send code_challenge with code_challenge_method=S256")
        }
        guard fields["code_challenge_method"] == "S256" else {
            throw .invalidRequest("code_challenge_method must be S256")
        }
        // The base64url of a SHA-256: 43 characters, which is also a well-formed verifier's alphabet.
        guard isSHA256Base64URL(challenge) else {
            throw .invalidRequest("code_challenge must be 43 characters of base64url")
        }
        if let thumbprint = fields["dpop_jkt"], !isSHA256Base64URL(thumbprint) {
            throw .invalidRequest("dpop_jkt must be a JWK SHA-256 thumbprint: 43 characters of base64url")
        }
        let scope: String?
        do { scope = try Self.scope(fields["scope"]) } catch {
            throw TokenEndpointError(code: "invalid_scope", description: "scope must be space-separated printable ASCII tokens")
        }
        return ReferenceStore.AuthorizationRequest(
            clientID: clientID, redirectURI: redirectURI, scope: scope, state: fields["state"], nonce: fields["nonce"],
            codeChallenge: challenge, dpopKeyThumbprint: fields["dpop_jkt"], resource: resource)
    }

    /// 43 characters of base64url without `.` or `~`: the encoding of a SHA-256.
    private static func isSHA256Base64URL(_ text: String) -> Bool {
        text.utf8.count == 43 && ReferenceStore.isCodeVerifier(text) && !text.contains(".") && !text.contains("~")
    }

    /// `POST /oauth2/authorize`: the person signs in and allows or denies; the browser is then
    /// sent back to the program with a code, or with `access_denied`.
    /// - Parameter client: The peer's address, for the login throttle.
    func authorizationDecision(_ request: Request, client: String) async -> Response {
        guard mediaType(of: request) == Self.formMediaType,
              let form = try? await self.form(of: request) else {
            return ProviderPage.response(AuthorizationPage.problem("The form could not be read."), status: .badRequest)
        }
        let requestID = form["request"] ?? ""
        let email = String((form["email"] ?? "").prefix(320))
        let approve: Bool
        switch form["action"] {
        case "approve"?: approve = true
        case "deny"?: approve = false
        default:
            return ProviderPage.response(AuthorizationPage.problem("Choose Allow or Deny."), status: .badRequest)
        }
        guard let waiting = await store.authorizationRequest(id: requestID) else {
            return ProviderPage.response(AuthorizationPage.problem("This sign-in has expired or was already answered."),
                                         status: .badRequest)
        }
        let label = await clientLabel(waiting.clientID)
        func again(_ message: String, _ status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
            ProviderPage.response(AuthorizationPage.form(requestID: requestID, clientID: label,
                                                         scope: waiting.scope, email: email, message: message),
                                  status: status, headers: headers, formActions: [Self.origin(of: waiting.redirectURI)])
        }
        guard !email.isEmpty, let password = form["password"], !password.isEmpty else {
            return again("Enter your email and password.", .badRequest)
        }
        switch await store.decideAuthorization(requestID: requestID, email: email, password: password,
                                               approve: approve, client: client) {
        case .approved(let code, let answered):
            return await redirect(to: answered.redirectURI, ["code": code, "state": answered.state])
        case .denied(let answered):
            return await redirect(to: answered.redirectURI, ["error": "access_denied",
                                                            "error_description": "the person denied the sign-in",
                                                            "state": answered.state])
        case .unknownRequest:
            return ProviderPage.response(AuthorizationPage.problem("This sign-in has expired or was already answered."),
                                         status: .badRequest)
        case .refused:
            return again("The email or password is wrong.", .forbidden)
        case .throttled(let wait, _):
            return again("Too many failed sign-ins; try again in \(wait) s.", .tooManyRequests,
                         headers: [.retryAfter: String(wait)])
        }
    }

    /// How the page names `clientID`: a registered client's `client_name` with its id — the name
    /// is whatever the program registered, so the id stays beside it — else the id.
    private func clientLabel(_ clientID: String) async -> String {
        guard let name = await store.registeredClient(id: clientID)?.name else { return clientID }
        return "\(name) (\(clientID))"
    }

    /// `303 See Other` to `redirectURI` with `parameters` and this server's `iss` (RFC 9207)
    /// added to its query.
    private func redirect(to redirectURI: String, _ parameters: KeyValuePairs<String, String?>) async -> Response {
        var components = URLComponents(string: redirectURI) ?? URLComponents()
        var items = components.queryItems ?? []
        for case let (name, value?) in parameters { items.append(URLQueryItem(name: name, value: value)) }
        items.append(URLQueryItem(name: "iss", value: await store.origin))
        components.queryItems = items
        // URLComponents leaves "+" alone in queries, where a form decoder reads a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        var headers = ProviderPage.securityHeaders()
        headers[.location] = components.string ?? redirectURI
        return Response(status: .seeOther, headers: headers)
    }

    /// `http://127.0.0.1:49152` of a checked loopback redirect URI, for the page's `form-action`.
    private static func origin(of redirectURI: String) -> String {
        guard let components = URLComponents(string: redirectURI), let host = components.host else { return "'none'" }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(bracketed)" + (components.port.map { ":\($0)" } ?? "")
    }

    /// RFC 8252 §7.3: `http` to a loopback IP literal, any port, no fragment; `localhost` is
    /// refused, as §8.3 advises, since a resolver could send it elsewhere.
    static func isLoopbackRedirect(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), components.scheme == "http", components.fragment == nil,
              components.user == nil, components.password == nil,
              let host = components.host, ["127.0.0.1", "[::1]", "::1"].contains(host)
        else { return false }
        return true
    }
}

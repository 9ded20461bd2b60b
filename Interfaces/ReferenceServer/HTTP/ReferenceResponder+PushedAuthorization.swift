import Foundation
import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `POST /oauth2/par` (RFC 9126 §2): an authorization request pushed by the client, checked as
    /// the authorization page checks one, then kept under a one-time `request_uri` the browser
    /// brings to `/oauth2/authorize`. The client authenticates as at the token endpoint (the
    /// public client names itself with `client_id`). A `DPoP` proof (RFC 9449 §10.1), when sent,
    /// binds the code as `dpop_jkt` does, and must agree with it. Errors answer as the token
    /// endpoint's (RFC 9126 §2.3).
    func pushedAuthorization(_ request: Request) async throws -> Response {
        guard pushedAuthorization != .off else {
            throw APIProblem.notFound("There is no resource at /oauth2/par: this server takes no pushed authorization "
                + "requests (--par).")
        }
        do {
            let form = try await tokenForm(request)
            if let repeated = Set(form.pairs.map(\.name)).sorted().first(where: { $0 != "resource" && form.count(of: $0) > 1 }) {
                throw TokenEndpointError.invalidRequest("the parameter \(repeated) must not be repeated")
            }
            guard let clientID = try await authenticatedClient(request, form: form) else {
                throw TokenEndpointError.invalidClient
            }
            if let named = form["client_id"], named != clientID {
                throw TokenEndpointError.invalidRequest("client_id differs from the client that authenticated")
            }
            guard form["request_uri"] == nil else {
                throw TokenEndpointError.invalidRequest("a pushed request must not carry request_uri (RFC 9126 §2.1)")
            }
            guard let redirectURI = form["redirect_uri"], await acceptsRedirect(redirectURI, for: clientID) else {
                throw TokenEndpointError.invalidRequest(
                    "redirect_uri must be one this client registered (http://127.0.0.1 or http://[::1], any port)")
            }
            try await requireGrant("authorization_code", for: clientID)
            var pushed = try Self.authorizationRequest(form, clientID: clientID, redirectURI: redirectURI,
                                                       resource: try await requestedResource(form))
            if let proved = try await pushedRequestProof(request) {
                guard pushed.dpopKeyThumbprint == nil || pushed.dpopKeyThumbprint == proved else {
                    throw TokenEndpointError.invalidDPoPProof("the DPoP proof's key is not the one dpop_jkt names")
                }
                pushed.dpopKeyThumbprint = proved
            }
            let (requestURI, expiresIn) = await store.push(pushed)
            return try Responses.json(PushedAuthorizationBody(requestURI: requestURI, expiresIn: expiresIn),
                                      status: .created, headers: Self.noStore)
        } catch let error as TokenEndpointError {
            var response = Responses.tokenError(error)
            if error.code == "invalid_client" {
                response.headers[.wwwAuthenticate] = #"Basic realm="rider-reference""#
            }
            return response
        }
    }

    /// The proof a pushed request carries, checked as a token request's; `nil` without one — at
    /// the PAR endpoint a proof is optional even when DPoP is required, since `dpop_jkt` serves.
    private func pushedRequestProof(_ request: Request) async throws(TokenEndpointError) -> String? {
        guard dpop != .off, request.headers.contains(where: { $0.name.canonicalName == "dpop" }) else { return nil }
        return try await tokenRequestProof(request)
    }
}

/// RFC 9126 §2.2's answer: the `request_uri` and how many seconds it lives.
struct PushedAuthorizationBody: Encodable, Sendable {
    let requestURI: String
    let expiresIn: Int

    enum CodingKeys: String, CodingKey {
        case requestURI = "request_uri"
        case expiresIn = "expires_in"
    }
}

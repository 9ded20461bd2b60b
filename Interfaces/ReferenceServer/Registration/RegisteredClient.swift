import Foundation

/// A client registered at `POST /oauth2/register` (RFC 7591): always a public native client
/// (`token_endpoint_auth_method: none`) whose redirect URIs are loopback `http` ones.
struct RegisteredClient: Sendable, Equatable {
    /// The grant types a registration may name: what a public native client uses.
    static let grantTypes = ["authorization_code", "refresh_token", TokenEndpointError.deviceCodeGrantType]

    /// Random and unguessable (128 bits), so one client cannot use another's registration.
    let id: String
    let issuedAt: Date
    let name: String?
    let redirectURIs: [String]
    /// A subset of ``grantTypes``; a request for another grant is `unauthorized_client`.
    let grantTypes: [String]
    /// `["code"]` with the authorization code grant, else empty (RFC 7591 §2.1).
    var responseTypes: [String] { grantTypes.contains("authorization_code") ? ["code"] : [] }
    /// Recorded and echoed, not enforced: the server grants any well-formed scope it is asked for.
    let scope: String?

    func allows(_ grantType: String) -> Bool { grantTypes.contains(grantType) }

    /// Whether `redirectURI` is one of the registered ones, compared without the port: RFC 8252
    /// §7.3 has the native app pick a free port when it listens, so the authorization server
    /// must allow any port on a loopback redirect URI. Scheme, host (`127.0.0.1` and `[::1]` are
    /// distinct), path and query must be equal.
    func accepts(redirectURI: String) -> Bool {
        guard let asked = Self.portless(redirectURI) else { return false }
        return redirectURIs.contains { Self.portless($0) == asked }
    }

    /// `redirectURI` without its port, when it is a loopback `http` one.
    private static func portless(_ redirectURI: String) -> String? {
        guard ReferenceResponder.isLoopbackRedirect(redirectURI), var components = URLComponents(string: redirectURI)
        else { return nil }
        components.port = nil
        // `http://127.0.0.1` and `http://127.0.0.1/` name the same resource (RFC 3986 §6.2.3).
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
        return components.string
    }
}

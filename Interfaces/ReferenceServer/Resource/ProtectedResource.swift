import Foundation

/// The protected resources this server serves, each with its own RFC 9728 metadata, so that a
/// token asked for one (RFC 8707 `resource`) can be seen refused at the other.
enum ProtectedResource: Sendable, CaseIterable {
    /// The rider API: the whole server but `/admin/`, identified by the base URL.
    case api
    /// A small administrative resource under `/admin/` (`GET /admin/stats`), identified by
    /// `<base URL>/admin`; it needs the `rider:admin` scope.
    case admin

    /// The scope `/admin/` needs, which the default sign-in does not ask for.
    static let adminScope = "rider:admin"

    /// The resource identifier (RFC 8707 §2, RFC 9728 §1.2) under `origin`.
    func identifier(origin: String) -> String {
        switch self {
        case .api: origin
        case .admin: origin + "/admin"
        }
    }

    /// Where its metadata is: the well-known name with the identifier's path inserted (RFC 9728 §3.1).
    var metadataPath: String {
        switch self {
        case .api: "/.well-known/oauth-protected-resource"
        case .admin: "/.well-known/oauth-protected-resource/admin"
        }
    }

    /// Its metadata's address on the server at `origin`.
    func metadataURL(origin: String) -> String {
        origin + metadataPath
    }

    /// A name for people (`resource_name`).
    var name: String {
        switch self {
        case .api: "Rider API (reference server)"
        case .admin: "Rider administration (reference server)"
        }
    }

    /// The scopes its metadata lists: the minimal set a client asks for at first. `rider:admin`
    /// is left out on purpose, as the MCP authorization spec describes: a client that signed in
    /// with these meets `403 insufficient_scope` at `/admin/stats` and steps up for it, which is
    /// the flow this server is there to exercise. The authorization server's metadata lists it.
    var scopesSupported: [String] {
        ["openid", "email", "profile"]
    }

    /// The canonical identifier a `resource` parameter names (RFC 8707 §2).
    /// - Throws: `invalid_target` for a relative URI, one with a fragment, or one that names
    ///   neither resource; a trailing `/` is ignored.
    static func canonical(_ uri: String, origin: String) throws(TokenEndpointError) -> String {
        guard let components = URLComponents(string: uri), components.scheme != nil, components.host != nil else {
            throw .invalidTarget("resource must be an absolute URI (RFC 8707 §2)")
        }
        guard components.fragment == nil else { throw .invalidTarget("resource must not carry a fragment (RFC 8707 §2)") }
        let trimmed = uri.hasSuffix("/") ? String(uri.dropLast()) : uri
        guard let known = allCases.first(where: { $0.identifier(origin: origin) == trimmed }) else {
            throw .invalidTarget("this server knows no resource \(uri.prefix(200)); its resources are "
                + allCases.map { $0.identifier(origin: origin) }.joined(separator: " and "))
        }
        return known.identifier(origin: origin)
    }
}

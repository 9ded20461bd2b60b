import Foundation
import RiderDomain

/// Where the API lives and how to talk to its OAuth 2.0 token endpoint.
///
/// Paths are relative to ``baseURL`` so the same code works against the reference
/// server and any standards-conforming OAuth 2.0 server.
public struct APIConfiguration: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// How the client authenticates at the provider's endpoints that authenticate it — token,
    /// pushed authorization requests, device authorization, revocation (RFC 6749 §2.3,
    /// RFC 7523 §2.2). Without a client secret, ``basic`` and ``requestBody`` name the client
    /// with `client_id` alone, as a public client does.
    public enum ClientAuthentication: String, Hashable, Sendable, CaseIterable {
        /// `Authorization: Basic` with the client id and secret (`client_secret_basic`, the RFC's
        /// preferred way) — or `client_secret_post` where the provider lists only that.
        case basic
        /// `client_id` and `client_secret` as form fields (`client_secret_post`).
        case requestBody = "body"
        /// A public client: `client_id` alone, the secret (if any) never sent (`none`).
        case none
        /// An assertion signed with the client's private key (`private_key_jwt`, RFC 7523):
        /// no shared secret crosses the network. The key comes from the program's
        /// assertion signer (`rider`: the PEM file `client_key_file` names).
        case privateKeyJWT = "private_key_jwt"
    }

    /// Who a `private_key_jwt` assertion is addressed to (its `aud`).
    public enum ClientAssertionAudience: String, Hashable, Sendable, CaseIterable {
        /// The provider's issuer, as FAPI 2.0 and RFC 7523's update ask — the token endpoint's
        /// address where no issuer is configured.
        case issuer
        /// The token endpoint's address, as OpenID Connect Core §9 asks.
        case tokenEndpoint = "token_endpoint"
    }

    public private(set) var baseURL: URL
    public var tokenPath: String
    public var mePath: String
    public var revokePath: String
    public var clientID: String?
    /// Never printed: ``description`` redacts it.
    public var clientSecret: String?
    public var clientAuthentication: ClientAuthentication
    public var scope: String?
    /// How long one request may take before it fails with `RiderError.timedOut`.
    public var requestTimeout: TimeInterval
    /// Refresh this long before the access token expires (capped at half its lifetime, so a
    /// short-lived token is not refreshed on every request).
    public var refreshLeeway: TimeInterval
    /// Whether sign-ins bind their tokens to a key (DPoP, RFC 9449): ``DPoPUse/auto`` unless told.
    public var dpop: DPoPUse = .auto
    /// Who `private_key_jwt` assertions are addressed to: ``ClientAssertionAudience/issuer``
    /// unless told.
    public var clientAssertionAudience: ClientAssertionAudience = .issuer
    /// The signed assertion for one request, while `private_key_jwt` is used: set just before
    /// each request by the authorization server, never stored or printed.
    package var clientAssertion: String?

    /// The protected resource the tokens are for (RFC 8707): named as `resource` on every
    /// authorization, pushed, device authorization and token request, so the provider can
    /// restrict the tokens' audience to it, whether or not its metadata says it understands the
    /// parameter. `nil` (the default) names none. It must be on ``baseURL``'s origin: a session's
    /// tokens go nowhere else.
    public var resource: URL?

    /// Whether browser sign-ins push their request to the provider first (PAR, RFC 9126):
    /// ``PushedAuthorizationUse/auto`` unless told.
    public var pushedAuthorization: PushedAuthorizationUse = .auto

    /// When a browser sign-in pushes its authorization request to the provider (RFC 9126) and
    /// opens the browser with only a reference to it, so nothing of the request — scope, PKCE
    /// challenge, redirect — can be read or changed in the browser's address.
    public enum PushedAuthorizationUse: String, Hashable, Sendable, CaseIterable {
        /// When the provider's metadata names a `pushed_authorization_request_endpoint`.
        case auto
        /// Always: a provider without the endpoint is refused before the browser opens.
        case required
        /// Never; a provider that requires pushed requests is then refused before the browser opens.
        case off
    }

    /// When a sign-in binds its tokens to a DPoP key (RFC 9449), so a copied token is useless
    /// without a proof only this session can sign.
    public enum DPoPUse: String, Hashable, Sendable, CaseIterable {
        /// When the provider's metadata says it takes ES256 proofs.
        case auto
        /// Always: a provider that answers with a bearer token is refused.
        case required
        /// Never.
        case off
    }

    /// - Throws: `RiderError.invalidConfiguration(_:)` when `baseURL` is not an absolute http(s)
    ///   URL, or uses plain http for a host other than loopback (tokens would cross the network
    ///   in the clear).
    public init(
        baseURL: URL,
        tokenPath: String = "/auth/token",
        mePath: String = "/auth/me",
        revokePath: String = "/auth/revoke",
        clientID: String? = nil,
        clientSecret: String? = nil,
        clientAuthentication: ClientAuthentication = .basic,
        scope: String? = nil,
        requestTimeout: TimeInterval = 15,
        refreshLeeway: TimeInterval = 60
    ) throws {
        try Self.validate(baseURL)
        self.baseURL = baseURL
        self.tokenPath = tokenPath
        self.mePath = mePath
        self.revokePath = revokePath
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientAuthentication = clientAuthentication
        self.scope = scope
        self.requestTimeout = requestTimeout
        self.refreshLeeway = refreshLeeway
    }

    /// The scheme, host and port of ``baseURL`` (`https://api.example.com`), which names the
    /// server in vault entries and cache folders.
    package var origin: String { Self.origin(of: baseURL) }

    /// The origin of the token endpoint: ``origin`` unless ``tokenPath`` is an absolute URL on
    /// another server. A stored session is bound to both, since its refresh token goes there.
    package var tokenEndpointOrigin: String {
        guard let url = try? url(for: tokenPath) else { return origin }
        return Self.origin(of: url)
    }

    /// `scheme://host[:port]` of `url`, lowercased, the port only when the URL names one.
    static func origin(of url: URL) -> String {
        // Built by hand from the encoded host so an IPv6 literal keeps its brackets.
        guard let parsed = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = parsed.scheme?.lowercased(),
              let host = parsed.percentEncodedHost?.lowercased()
        else { return url.absoluteString }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)" + (parsed.port.map { ":\($0)" } ?? "")
    }

    /// Builds the absolute URL of `path` under ``baseURL``, keeping any base path prefix.
    ///
    /// A `path` that is already an absolute http(s) URL (a token endpoint on another host) is
    /// used as it is.
    package func url(for path: String, query: [(String, String)] = []) throws -> URL {
        // A path starting with "/" has no scheme: skip parsing it as a URL (every request pays it).
        if !path.hasPrefix("/"), let absolute = URL(string: path), absolute.scheme != nil {
            try Self.validate(absolute)
            return try Self.appendingQuery(query, to: absolute)
        }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw RiderError.invalidConfiguration("the base URL \(baseURL) cannot be parsed")
        }
        let prefix = components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        let suffix = path.hasPrefix("/") ? path : "/" + path
        components.percentEncodedPath = prefix + suffix
        guard let url = components.url else {
            throw RiderError.invalidConfiguration("the path \(path) does not form a valid URL")
        }
        return try Self.appendingQuery(query, to: url)
    }

    /// Whether the scope asks for OpenID Connect (`openid`): then the provider identifies the
    /// account with an id_token or at its userinfo endpoint.
    package var requestsOpenID: Bool {
        scope?.split(separator: " ").contains("openid") ?? false
    }

    public var description: String {
        "APIConfiguration(baseURL: \(baseURL), tokenPath: \(tokenPath), clientID: \(clientID ?? "none"), "
            + "clientSecret: \(clientSecret == nil ? "none" : "<redacted>"))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "baseURL": baseURL, "tokenPath": tokenPath, "mePath": mePath, "revokePath": revokePath,
            "clientID": clientID as Any, "clientSecret": clientSecret == nil ? "none" : "<redacted>",
            "clientAuthentication": clientAuthentication, "scope": scope as Any,
            "requestTimeout": requestTimeout, "refreshLeeway": refreshLeeway, "resource": resource as Any,
        ])
    }

    private static func appendingQuery(_ query: [(String, String)], to url: URL) throws -> URL {
        guard !query.isEmpty else { return url }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw RiderError.invalidConfiguration("the URL \(url) cannot be parsed")
        }
        let encoded = FormEncoding.encode(query, spaceAsPlus: false)
        components.percentEncodedQuery = [components.percentEncodedQuery, encoded]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "&")
        guard let result = components.url else {
            throw RiderError.invalidConfiguration("the query does not form a valid URL")
        }
        return result
    }

    /// Checks that `resource` can name the protected resource a session is for (RFC 8707 §2,
    /// RFC 9728 §1.2) on the API at `baseURL`: an https (or loopback http) URL without user
    /// name, password or fragment, on `baseURL`'s origin — a session's tokens are sent to that
    /// origin alone, so a resource elsewhere could never be used with them.
    /// - Throws: `RiderError.invalidConfiguration(_:)` saying which rule it breaks.
    package static func validateResource(_ resource: URL, on baseURL: URL) throws {
        try validate(resource)
        guard resource.fragment == nil else {
            throw RiderError.invalidConfiguration("the resource \(resource.absoluteString) must not have a fragment "
                + "(RFC 8707 §2)")
        }
        guard origin(of: resource) == origin(of: baseURL) else {
            throw RiderError.invalidConfiguration("the resource \(resource.absoluteString) is not on the server "
                + "\(origin(of: baseURL)): a session's tokens are sent to its server's origin alone")
        }
    }

    static func validate(_ url: URL) throws {
        guard url.user == nil, url.password == nil else {
            // Never echo the URL: its userinfo is a password in the clear.
            throw RiderError.invalidConfiguration("a server URL must not contain a user name or password "
                + "(user:password@host); RiderKit signs in itself and keeps the session in the vault")
                .suggesting(.signIn)
        }
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw RiderError.invalidConfiguration("'\(url)' is not an absolute URL such as https://api.example.com")
        }
        switch scheme {
        case "https":
            return
        case "http":
            guard isLoopback(host) else {
                throw RiderError.invalidConfiguration(
                    "plain http is only allowed for loopback hosts; use https for \(host)")
            }
        default:
            throw RiderError.invalidConfiguration("the scheme '\(scheme)' is not supported; use https")
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" { return true }
        // Only a literal 127.x.y.z counts: a name such as "127.evil.example" resolves anywhere.
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCII) && octet.allSatisfy(\.isNumber)
                && (Int(octet) ?? 256) <= 255
        }
    }
}

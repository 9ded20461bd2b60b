import Foundation

/// The client RiderKit signs in as at one authorization server: configured, named by a Client ID
/// Metadata Document, or registered dynamically (RFC 7591), with what the server registered.
///
/// `description` never shows the client secret: it says only whether there is one.
package struct RegisteredClient: Hashable, Sendable, CustomStringConvertible {
    /// How the client id was obtained.
    package enum Origin: String, Hashable, Sendable, Codable {
        /// Set in the configuration; nothing was registered.
        case configured
        /// The https URL of the client's metadata document, which the server fetches itself.
        case metadataDocument = "metadata-document"
        /// Registered at the server's `registration_endpoint` (RFC 7591).
        case dynamic
    }

    /// The issuer identifier of the authorization server the client belongs to, exactly as its
    /// metadata spells it.
    package var issuer: String
    /// `client_id`.
    package var clientID: String
    /// `client_secret`, when the server issued one. Never written to a plain file.
    package var clientSecret: String?
    /// `client_secret_expires_at`: when the secret stops working; `nil` when it does not expire
    /// (the wire's `0`) or there is no secret.
    package var clientSecretExpiresAt: Date?
    /// `client_id_issued_at`, when the server said.
    package var issuedAt: Date?
    /// The grant types the server registered (`authorization_code`, `refresh_token`, …).
    package var grantTypes: [String]
    /// The redirect URIs the server registered.
    package var redirectURIs: [String]
    /// The response types the server registered (`code`).
    package var responseTypes: [String]
    /// How the client authenticates at the token endpoint (`none`, `client_secret_basic`,
    /// `client_secret_post`).
    package var tokenEndpointAuthMethod: String
    /// The `scope` the server registered the client for, when it said.
    package var scope: String?
    /// Whether the client may receive id_tokens, so whether a sign-in may ask for `openid`
    /// (`ClientRegistration` documents the rule).
    package var mayReceiveIDTokens: Bool
    /// How the client id was obtained.
    package var origin: Origin

    /// - Parameters: the members above; the lists default to what RiderKit asks for.
    package init(issuer: String, clientID: String, clientSecret: String? = nil, clientSecretExpiresAt: Date? = nil,
                 issuedAt: Date? = nil, grantTypes: [String] = ["authorization_code", "refresh_token"],
                 redirectURIs: [String] = [], responseTypes: [String] = ["code"], tokenEndpointAuthMethod: String = "none",
                 scope: String? = nil, mayReceiveIDTokens: Bool = false, origin: Origin) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientSecretExpiresAt = clientSecretExpiresAt
        self.issuedAt = issuedAt
        self.grantTypes = grantTypes
        self.redirectURIs = redirectURIs
        self.responseTypes = responseTypes
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.scope = scope
        self.mayReceiveIDTokens = mayReceiveIDTokens
        self.origin = origin
    }

    /// Whether the token endpoint wants a client secret from this client: its registered
    /// authentication method is not `none`.
    package var needsSecret: Bool { tokenEndpointAuthMethod != "none" }

    /// Whether the client secret has stopped working at `now`.
    /// - Parameter now: the current instant.
    package func secretHasExpired(at now: Date) -> Bool {
        clientSecretExpiresAt.map { $0 <= now } ?? false
    }

    package var description: String {
        "RegisteredClient(issuer: \(issuer), clientID: \(clientID), origin: \(origin.rawValue), "
            + "clientSecret: \(clientSecret == nil ? "none" : "<redacted>"), "
            + "tokenEndpointAuthMethod: \(tokenEndpointAuthMethod), grantTypes: \(grantTypes))"
    }
}

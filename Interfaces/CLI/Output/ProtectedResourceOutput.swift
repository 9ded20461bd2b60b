import Foundation
import RiderApplication
import RiderKit

/// A protected resource's metadata and its authorization server's, as `rider provider show
/// --resource` prints them. Every value is the servers' text: the human lines go through
/// ``HumanFormat/block(_:)``, which makes them terminal-safe.
struct ProtectedResourceOutput: Encodable, Sendable {
    /// The resource's side (RFC 9728).
    struct Resource: Encodable, Sendable {
        let resource: String
        /// Where the document was read.
        let metadataURL: String
        /// `challenge`, `path-inserted` or `root`.
        let foundAt: String
        /// What the first, unauthenticated request was answered with.
        let status: Int
        /// The resource's challenge, when it sent one: scheme, `scope`, `error`.
        @Nullable var challenge: Challenge?
        let authorizationServers: [String]
        @Nullable var scopesSupported: [String]?
        @Nullable var bearerMethodsSupported: [String]?
        @Nullable var dpopSigningAlgValuesSupported: [String]?
        let dpopBoundAccessTokensRequired: Bool
        @Nullable var resourceName: String?
    }

    struct Challenge: Encodable, Sendable {
        let scheme: String
        @Nullable var scope: String?
        @Nullable var error: String?
    }

    /// The client rider signs in with there: never its secret.
    struct Client: Encodable, Sendable {
        let clientID: String
        /// `configured`, `metadata-document` or `dynamic` (registered by rider, RFC 7591).
        let origin: String
        @Nullable var issuedAt: Date?
        let grantTypes: [String]
        let redirectURIs: [String]
    }

    let protectedResource: Resource
    let authorizationServer: ProviderOutput
    /// `nil` when rider registers at its first sign-in there (or cannot: no registration endpoint).
    @Nullable var client: Client?
    /// Whether the authorization server takes registrations (names a registration_endpoint).
    let registrationOffered: Bool

    init(_ discovered: ProtectedResourceDiscovery.Discovered, client registered: RegisteredClient?, now: Date) {
        let metadata = discovered.metadata
        protectedResource = Resource(
            resource: metadata.resource, metadataURL: discovered.metadataURL.absoluteString,
            foundAt: discovered.location.rawValue, status: discovered.status,
            challenge: discovered.challenge.map { Challenge(scheme: $0.scheme, scope: $0.scope, error: $0.error) },
            authorizationServers: metadata.authorizationServers, scopesSupported: metadata.scopesSupported,
            bearerMethodsSupported: metadata.bearerMethodsSupported,
            dpopSigningAlgValuesSupported: metadata.dpopSigningAlgValuesSupported,
            dpopBoundAccessTokensRequired: metadata.dpopBoundAccessTokensRequired, resourceName: metadata.resourceName)
        authorizationServer = ProviderOutput(discovered.authorizationServer, explicit: ProviderEndpoints(), now: now)
        client = registered.map {
            Client(clientID: $0.clientID, origin: $0.origin.rawValue, issuedAt: $0.issuedAt, grantTypes: $0.grantTypes,
                   redirectURIs: $0.redirectURIs)
        }
        registrationOffered = discovered.authorizationServer.metadata.registrationEndpoint != nil
    }

    var lines: [String] {
        let resource = protectedResource
        let found = switch resource.foundAt {
        case "challenge": "named by the resource's WWW-Authenticate (HTTP \(resource.status))"
        case "path-inserted": "at the well-known location with the resource's path (HTTP \(resource.status) without a challenge naming it)"
        default: "at the well-known location at the root (HTTP \(resource.status) without a challenge naming it)"
        }
        var rows: [(String, String)] = [("resource", resource.resource), ("metadata", resource.metadataURL), ("found", found)]
        if let challenge = resource.challenge {
            rows.append(("challenge", ([challenge.scheme] + [challenge.scope.map { "scope=\($0)" }, challenge.error.map { "error=\($0)" }]
                .compactMap { $0 }).joined(separator: " ")))
        }
        rows.append(("authorization servers", resource.authorizationServers.joined(separator: " ")))
        rows.append(("scopes", resource.scopesSupported?.joined(separator: " ") ?? "not stated"))
        rows.append(("bearer methods", resource.bearerMethodsSupported?.joined(separator: " ") ?? "not stated"))
        if let algorithms = resource.dpopSigningAlgValuesSupported {
            rows.append(("DPoP", algorithms.joined(separator: " ")
                + (resource.dpopBoundAccessTokensRequired ? " (bound tokens required)" : "")))
        }
        if let name = resource.resourceName { rows.append(("name", name)) }
        return ["Protected resource (RFC 9728)"] + HumanFormat.block(rows).map { "  " + $0 }
            + ["", "Authorization server (chosen)"] + authorizationServer.lines.map { "  " + $0 }
            + ["", "Client"] + HumanFormat.block(clientRows).map { "  " + $0 }
    }

    private var clientRows: [(String, String)] {
        guard let client else {
            return [("client id", registrationOffered ? "none yet: rider registers at the first sign-in (RFC 7591)"
                        : "none: set client_id (the server takes no registrations)")]
        }
        let origin = switch client.origin {
        case "dynamic": "registered by rider" + (client.issuedAt.map { " on \(HumanFormat.date($0))" } ?? "")
        case "metadata-document": "its client id metadata document"
        default: "configured"
        }
        return [("client id", client.clientID), ("from", origin),
                ("grant types", client.grantTypes.isEmpty ? "-" : client.grantTypes.joined(separator: " ")),
                ("redirect URIs", client.redirectURIs.joined(separator: " "))]
    }
}

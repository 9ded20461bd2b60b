import Foundation
import RiderKit

/// A provider's metadata as `rider provider show` prints it. Every value is the provider's
/// text: the human lines go through ``HumanFormat/block(_:)``, which makes them terminal-safe.
struct ProviderOutput: Encodable, Sendable {
    let issuer: String
    /// `network`, `cache` or `offline`.
    let source: String
    /// Why the provider could not be asked, for `offline`.
    @Nullable var offlineReason: String?
    let storedAt: Date
    let expiresAt: Date
    /// The endpoints the metadata names, by their metadata names.
    let endpoints: [String: String]
    /// Metadata names of the endpoints a setting overrides (those settings win).
    let overridden: [String]
    @Nullable var grantTypesSupported: [String]?
    @Nullable var codeChallengeMethodsSupported: [String]?
    let authorizationResponseIssParameterSupported: Bool
    private let now: Date

    enum CodingKeys: String, CodingKey {
        case issuer, source, offlineReason, storedAt, expiresAt, endpoints, overridden, grantTypesSupported
        case codeChallengeMethodsSupported, authorizationResponseIssParameterSupported
    }

    init(_ discovered: ProviderDiscovery.Discovered, explicit: ProviderEndpoints, now: Date) {
        let metadata = discovered.metadata
        issuer = metadata.issuer
        switch discovered.source {
        case .network, .revalidated: source = "network"
        case .cache: source = "cache"
        case .offline: source = "offline"
        }
        if case .offline(let reason) = discovered.source { offlineReason = reason.errorDescription } else { offlineReason = nil }
        storedAt = discovered.storedAt
        expiresAt = discovered.expiresAt
        endpoints = Dictionary(metadata.endpoints.named.map { ($0.name, $0.url.absoluteString) }, uniquingKeysWith: { $1 })
        overridden = explicit.named.map(\.name)
        grantTypesSupported = metadata.grantTypesSupported
        codeChallengeMethodsSupported = metadata.codeChallengeMethodsSupported
        authorizationResponseIssParameterSupported = metadata.authorizationResponseIssParameterSupported
        self.now = now
    }

    var lines: [String] {
        let from: String
        switch source {
        case "cache": from = "the local cache (fetched \(HumanFormat.duration(now.timeIntervalSince(storedAt))) ago)"
        case "offline": from = "the local cache, expired: the provider could not be reached"
            + (offlineReason.map { " (\($0))" } ?? "")
        default: from = "the provider"
        }
        var rows: [(String, String)] = [("issuer", issuer), ("from", from)]
        rows.append(("kept until", expiresAt > storedAt ? HumanFormat.date(expiresAt) : "not kept (the provider forbids it)"))
        let names = ["authorization_endpoint", "token_endpoint", "device_authorization_endpoint", "revocation_endpoint",
                     "userinfo_endpoint", "jwks_uri"]
        for name in names {
            let value = endpoints[name] ?? "-"
            rows.append((name, overridden.contains(name) ? value + " (overridden by a setting)" : value))
        }
        rows.append(("grant types", grantTypesSupported?.joined(separator: " ")
            ?? "not stated (authorization_code implicit by RFC 8414)"))
        rows.append(("PKCE methods", codeChallengeMethodsSupported?.joined(separator: " ") ?? "not stated"))
        rows.append(("iss in responses", authorizationResponseIssParameterSupported ? "yes (RFC 9207)" : "no"))
        return HumanFormat.block(rows)
    }
}

import Foundation
import RiderDomain

extension ProviderDiscovery {
    /// Where the metadata of `issuer` may be, in the order asked: OpenID Connect Discovery
    /// (`{issuer}/.well-known/openid-configuration`, appended to the issuer's path), then RFC 8414
    /// (`/.well-known/oauth-authorization-server` inserted before the issuer's path, §3.1), each
    /// without the issuer's terminating `/`.
    /// - Parameter issuer: the issuer identifier.
    /// - Returns: the two URLs.
    package static func wellKnownURLs(for issuer: URL) -> [URL] {
        wellKnownURLs(for: issuer, order: .openIDConnectFirst)
    }

    /// Where the metadata of `issuer` may be, in the order `order` asks them, each without the
    /// issuer's terminating `/`:
    /// - ``MetadataProbeOrder/openIDConnectFirst``: OpenID Connect's appended to the path, then
    ///   RFC 8414's inserted before it (§3.1).
    /// - ``MetadataProbeOrder/authorizationServerFirst`` (the MCP authorization specification's,
    ///   2025-11-25): RFC 8414's inserted, OpenID Connect's inserted, OpenID Connect's appended;
    ///   for an issuer without a path, RFC 8414's then OpenID Connect's.
    /// - Parameters:
    ///   - issuer: the issuer identifier.
    ///   - order: which locations, in which order.
    /// - Returns: the URLs.
    package static func wellKnownURLs(for issuer: URL, order: MetadataProbeOrder) -> [URL] {
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) else { return [] }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        components.query = nil
        components.fragment = nil
        func at(_ wellKnownPath: String) -> URL? {
            var url = components
            url.percentEncodedPath = wellKnownPath
            return url.url
        }
        let oauthInserted = at("/.well-known/oauth-authorization-server" + path)
        let openIDAppended = at(path + "/.well-known/openid-configuration")
        switch order {
        case .openIDConnectFirst:
            return [openIDAppended, oauthInserted].compactMap { $0 }
        case .authorizationServerFirst where path.isEmpty:
            return [oauthInserted, openIDAppended].compactMap { $0 }
        case .authorizationServerFirst:
            return [oauthInserted, at("/.well-known/openid-configuration" + path), openIDAppended].compactMap { $0 }
        }
    }

    /// Whether `metadata` lacks an endpoint another of the issuer's documents may name: any of
    /// them in the MCP order; the revocation endpoint in the OpenID-first order, which keeps a
    /// configured issuer's usual one request unless logging out would go without.
    static func lacksMergeableEndpoint(_ metadata: ProviderMetadata, order: MetadataProbeOrder) -> Bool {
        switch order {
        case .openIDConnectFirst:
            metadata.endpoints.revocation == nil
        case .authorizationServerFirst:
            metadata.endpoints.revocation == nil || metadata.endpoints.deviceAuthorization == nil
                || metadata.endpoints.pushedAuthorizationRequest == nil || metadata.registrationEndpoint == nil
        }
    }

    /// `first` with the revocation, device authorization, pushed authorization request and
    /// registration endpoints it lacks taken from `other` (a document of the same issuer); every
    /// other member stays `first`'s.
    package static func merged(_ first: ProviderMetadata, filledFrom other: ProviderMetadata) -> ProviderMetadata {
        var merged = first
        merged.endpoints.revocation = first.endpoints.revocation ?? other.endpoints.revocation
        merged.endpoints.deviceAuthorization = first.endpoints.deviceAuthorization ?? other.endpoints.deviceAuthorization
        merged.endpoints.pushedAuthorizationRequest = first.endpoints.pushedAuthorizationRequest
            ?? other.endpoints.pushedAuthorizationRequest
        merged.registrationEndpoint = first.registrationEndpoint ?? other.registrationEndpoint
        return merged
    }

    /// Checks a registration endpoint (RFC 7591) as the other endpoints are checked.
    static func check(registration: URL?) throws {
        guard let registration else { return }
        var endpoints = ProviderEndpoints()
        endpoints.token = registration
        do {
            try check(endpoints)
        } catch {
            throw RiderError.invalidConfiguration("the provider's registration_endpoint is not usable: it must be https "
                + "(http only to a loopback address), without user name, password or fragment")
        }
    }

    /// How long to keep a document the provider sent with `cacheControl`: its `max-age` (capped at
    /// ``Configuration/maximumLifetime``), the default lifetime when it does not say, `nil` (not
    /// kept) for `no-store`, `no-cache` or `max-age=0`.
    static func lifetime(cacheControl: String?, _ configuration: Configuration) -> TimeInterval? {
        guard let cacheControl, !cacheControl.trimmingCharacters(in: .whitespaces).isEmpty else {
            return configuration.defaultLifetime > 0 ? min(configuration.defaultLifetime, configuration.maximumLifetime) : nil
        }
        if let maxAge = CacheableResponse<Int>.maxAge(cacheControl) {
            return maxAge > 0 ? min(maxAge, configuration.maximumLifetime) : nil
        }
        let directives = cacheControl.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if directives.contains(where: { $0 == "no-store" || $0 == "no-cache" }) { return nil }
        return configuration.defaultLifetime > 0 ? min(configuration.defaultLifetime, configuration.maximumLifetime) : nil
    }

    /// An issuer is an https URL (http only to a loopback address) with no user name, password,
    /// query or fragment (RFC 8414 §2).
    static func checkIssuer(_ issuer: URL) throws {
        try APIConfiguration.validate(issuer)
        guard let components = URLComponents(url: issuer, resolvingAgainstBaseURL: false),
              components.query == nil, components.fragment == nil else {
            throw RiderError.invalidConfiguration("the issuer \(issuer) must not have a query or fragment (RFC 8414 §2)")
        }
    }

    /// Checks every endpoint as a configured URL is checked: https, or plain http to a loopback
    /// address, with no user name or password.
    /// - Throws: `RiderError.invalidConfiguration(_:)` naming the endpoint; the URL's text is
    ///   clipped, since it came from the provider.
    static func check(_ endpoints: ProviderEndpoints) throws {
        for (name, url) in endpoints.named {
            do {
                try APIConfiguration.validate(url)
                guard url.fragment == nil else {
                    throw RiderError.invalidConfiguration("it has a fragment")
                }
            } catch {
                throw RiderError.invalidConfiguration("the provider's \(name) '\(ProblemMapping.clip(Self.withoutUserinfo(url)))' "
                    + "is not usable: it must be https (http only to a loopback address), without user name, password "
                    + "or fragment")
            }
        }
    }

    /// `url` as text without any `user:password@`, which must never be echoed.
    private static func withoutUserinfo(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "?" }
        components.user = nil
        components.password = nil
        return components.string ?? "?"
    }
}

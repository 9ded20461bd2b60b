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
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) else { return [] }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        components.query = nil
        components.fragment = nil
        var openID = components
        openID.percentEncodedPath = path + "/.well-known/openid-configuration"
        var oauth = components
        oauth.percentEncodedPath = "/.well-known/oauth-authorization-server" + path
        return [openID.url, oauth.url].compactMap { $0 }
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

import Foundation

/// Whether the page a device sign-in names is the provider's own, for a warning before a person
/// types the code there (RFC 8628 §5.4: the code is only as safe as the page it goes to).
///
/// RFC 8628 lets the page be anywhere, and the device authorization response comes over TLS from
/// the provider, so a page elsewhere is not refused: it is named. The rule is one a person can
/// check by eye: the page's host is the issuer's host or the device authorization endpoint's,
/// or a subdomain of one (`login.example.com` for the issuer `example.com`). "Same registrable
/// domain" would need the public suffix list, and would call `evil.github.io` related to
/// `id.github.io`; a subdomain of the provider's own host is under the provider's control.
enum DeviceVerificationPage {
    /// The hosts of `pages` (the verification URI and, when given, its complete form) that are
    /// neither one of the `providers`' hosts nor a subdomain of one, without repeats.
    /// - Parameters:
    ///   - pages: where the provider sends the person.
    ///   - providers: the issuer and the device authorization endpoint, where known.
    /// - Returns: the unrelated hosts, empty when every page is the provider's (or nothing is
    ///   known to compare with).
    static func unrelatedHosts(of pages: [URL], providers: [URL]) -> [String] {
        let trusted = providers.compactMap(host)
        guard !trusted.isEmpty else { return [] }
        var unrelated: [String] = []
        for page in pages {
            if let host = host(of: page), trusted.contains(where: { host == $0 || host.hasSuffix("." + $0) }) {
                continue
            }
            let shown = page.host ?? page.absoluteString
            if !unrelated.contains(shown) { unrelated.append(shown) }
        }
        return unrelated
    }

    /// The warning for `unrelated` hosts, naming the provider's; `nil` when there are none.
    static func warning(unrelated: [String], providers: [URL]) -> String? {
        guard !unrelated.isEmpty else { return nil }
        let known = providers.compactMap(\.host).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return "the sign-in page is on \(unrelated.joined(separator: " and ")), not on the provider's "
            + "\(known.joined(separator: " or ")): enter the code only if you trust that site"
    }

    /// `url`'s host compared as DNS compares it: lowercase, without a trailing dot.
    private static func host(of url: URL) -> String? {
        guard var host = url.host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasSuffix(".") { host.removeLast() }
        return host.isEmpty ? nil : host
    }
}

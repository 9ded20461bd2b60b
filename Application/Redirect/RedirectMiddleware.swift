import Foundation
import RiderDomain

/// Follows HTTP redirects itself, so credentials never leak to another origin.
///
/// Foundation on Linux copies every header, `Authorization` included, to wherever a server
/// redirects. RiderKit's transports therefore do not follow redirects; this pipeline step does, and:
/// - never follows a redirect of a request that carries credentials in its body
///   (``HTTPRequest/followsRedirects`` is `false` for the token and revocation endpoints):
///   `RiderError.unsafeRedirect(_:)`, and nothing is sent to the target;
/// - checks every target as a configured URL is checked: https, or plain http to a loopback
///   literal only;
/// - never resends a body to another origin (a cross-origin 307/308 with a body is refused);
/// - drops `Authorization`, `Cookie` and `Proxy-Authorization` when the scheme, host or port changes;
/// - never follows https → http;
/// - turns POST into GET without a body on 301/302/303 and keeps method and body on a same-origin 307/308;
/// - gives up after ``maximumRedirects`` hops.
package struct RedirectMiddleware: HTTPMiddleware {
    /// Headers that carry credentials.
    package static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization"]

    package let maximumRedirects: Int

    package init(maximumRedirects: Int = 5) {
        self.maximumRedirects = max(0, maximumRedirects)
    }

    /// - Throws: `RiderError.unsafeRedirect(_:)` for a redirect of a request carrying
    ///   credentials, a target that is not https (or http on loopback), a downgrade to http, a
    ///   body that would go to another origin, or too many hops; and what `next` throws.
    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                          next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        var current = request
        var hops = 0
        while true {
            let response = try await next(current)
            guard [301, 302, 303, 307, 308].contains(response.status),
                  let location = response.headers["Location"],
                  let target = URL(string: location, relativeTo: current.url)?.absoluteURL,
                  let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else { return response }
            let origin = Self.origin(of: target)
            guard current.followsRedirects else {
                throw RiderError.unsafeRedirect("\(origin) from \(current.method) \(current.url.path), a request "
                    + "that carries credentials (set the endpoint's final URL instead)")
            }
            guard hops < maximumRedirects else {
                throw RiderError.unsafeRedirect("\(origin) after \(maximumRedirects) redirects")
            }
            if current.url.scheme?.lowercased() == "https", scheme == "http" {
                throw RiderError.unsafeRedirect(origin)
            }
            do { try APIConfiguration.validate(target) } catch {
                throw RiderError.unsafeRedirect("\(origin), which is neither https nor a loopback address")
            }
            let next = Self.redirected(current, to: target, status: response.status)
            if next.body != nil, origin != Self.origin(of: current.url) {
                throw RiderError.unsafeRedirect("\(origin), which would receive the request's body")
            }
            current = next
            hops += 1
        }
    }

    static func redirected(_ request: HTTPRequest, to target: URL, status: Int) -> HTTPRequest {
        var next = request
        next.url = target
        if Self.origin(of: target) != Self.origin(of: request.url) {
            for name in credentialHeaders { next.headers.remove(name) }
        }
        // RFC 9110 §15.4: 303 always, and 301/302 for POST in practice, continue with GET.
        if status == 303 && request.method != .head || (status == 301 || status == 302) && request.method == .post {
            next.method = .get
            next.body = nil
            next.headers.remove("Content-Type")
            next.headers.remove("Content-Length")
        }
        return next
    }

    /// scheme://host:port with the default port made explicit, so `https://a` and `https://a:443` match.
    package static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}

import Foundation
import RiderDomain

/// The proxies the environment asks for, read the way curl reads them, so that switching
/// the transport away from URLSession (curl-based on Linux) changes nothing for a person behind
/// a proxy.
///
/// - `https_proxy` / `HTTPS_PROXY` for `https` URLs, `http_proxy` for `http` URLs (not the
///   upper-case `HTTP_PROXY`, which a CGI program cannot trust: it is the request's `Proxy:`
///   header), `all_proxy` / `ALL_PROXY` for either when the specific one is unset;
/// - `no_proxy` / `NO_PROXY`: a comma-separated list of host names (a name also matches its
///   subdomains; a leading `.` is ignored), IP addresses, or `*` for every host. Loopback
///   addresses are never proxied: a proxy cannot reach this machine's loopback on our behalf.
/// - A proxy is `http://[user:password@]host[:port]` (port 1080 when missing, as curl) or
///   `socks5://host[:port]`; a bare `host:port` is taken as `http://`.
///
/// A variable that cannot be used is not ignored (that would send traffic around the proxy the
/// person set up): `problem` names it, never its value, which may hold a password.
public struct ProxyEnvironment: Sendable, Hashable {
    /// Where a request goes first.
    package enum Route: Sendable, Hashable {
        case direct
        case http(host: String, port: Int, username: String?, password: String?)
        case socks5(host: String, port: Int)
    }

    /// The proxy for `https` URLs, `http` URLs, and the hosts that bypass both.
    package var https: Route
    package var http: Route
    package var bypass: [String]
    /// Why the environment cannot be used as it is, naming the variable; `nil` when it can.
    package var problem: String?

    /// No proxy at all.
    public static let none = ProxyEnvironment(https: .direct, http: .direct, bypass: [], problem: nil)

    package init(https: Route, http: Route, bypass: [String] = [], problem: String? = nil) {
        self.https = https
        self.http = http
        self.bypass = bypass
        self.problem = problem
    }

    /// Reads `https_proxy`, `http_proxy`, `all_proxy` and `no_proxy` (and their upper-case forms
    /// where curl reads those).
    public init(environment: [String: String]) {
        var problem: String?
        func route(_ names: [String]) -> Route {
            for name in names {
                guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                    continue
                }
                guard let route = Self.parse(value) else {
                    problem = problem ?? "\(name) is set but is not a proxy address RiderKit can use "
                        + "(expected http://[user:password@]host[:port] or socks5://host[:port])"
                    return .direct
                }
                return route
            }
            return .direct
        }
        let all = ["all_proxy", "ALL_PROXY"]
        self.https = route(["https_proxy", "HTTPS_PROXY"] + all)
        self.http = route(["http_proxy"] + all)
        let bypass = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
        self.bypass = bypass.split(separator: ",").map {
            var entry = $0.trimmingCharacters(in: .whitespaces).lowercased()
            if entry.hasPrefix(".") { entry.removeFirst() }
            return entry
        }.filter { !$0.isEmpty }
        self.problem = problem
    }

    /// The route for a request to `url`.
    package func route(for url: URL) -> Route {
        guard let host = url.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")) else {
            return .direct
        }
        if Self.isLoopback(host) || bypasses(host) { return .direct }
        return url.scheme?.lowercased() == "https" ? https : http
    }

    private func bypasses(_ host: String) -> Bool {
        bypass.contains { entry in
            entry == "*" || host == entry || host.hasSuffix("." + entry)
        }
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host.hasPrefix("127.")
    }

    private static func parse(_ value: String) -> Route? {
        let text = value.contains("://") ? value : "http://" + value
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty
        else { return nil }
        let port = components.port ?? 1080
        guard (1...65535).contains(port), components.path.isEmpty || components.path == "/" else { return nil }
        switch scheme {
        case "http":
            return .http(host: host, port: port, username: components.user.flatMap { $0.removingPercentEncoding },
                         password: components.password.flatMap { $0.removingPercentEncoding })
        case "socks5", "socks5h":
            guard components.user == nil else { return nil }
            return .socks5(host: host, port: port)
        default:
            return nil
        }
    }
}

extension ProxyEnvironment.Route: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Host and port only: a proxy's credentials are secrets.
    package var description: String {
        switch self {
        case .direct: "direct"
        case .http(let host, let port, _, _): "http proxy \(host):\(port)"
        case .socks5(let host, let port): "socks5 proxy \(host):\(port)"
        }
    }

    package var debugDescription: String { description }

    /// Keeps `dump(_:)` and debuggers from printing a proxy password.
    package var customMirror: Mirror { Mirror(self, children: ["route": description], displayStyle: .enum) }
}

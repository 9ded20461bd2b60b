import Foundation

/// A request as RiderKit hands it to an ``HTTPTransport``: plain values, no `URLRequest`.
public struct HTTPRequest: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var method: HTTPMethod
    public var url: URL
    public var headers: HTTPHeaders
    public var body: Data?
    /// How long the transport may wait for the whole response; `nil` uses the transport's default.
    public var timeout: TimeInterval?
    /// Whether a redirect may be followed. `false` for requests whose body carries credentials
    /// (a password, a refresh token, a client secret): a redirect of those is refused, never sent on.
    public var followsRedirects: Bool

    public init(method: HTTPMethod, url: URL, headers: HTTPHeaders = [:], body: Data? = nil,
                timeout: TimeInterval? = nil, followsRedirects: Bool = true) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.followsRedirects = followsRedirects
    }

    /// Method and URL without the query, which may hold search terms; headers and body are left
    /// out because they may hold secrets.
    public var description: String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        return "\(method) \(components?.string ?? url.path)"
    }

    public var debugDescription: String { description }

    /// Whether an HTTP transport may send this request: an `http` or `https` URL with a host.
    /// Transports check it first because their libraries would otherwise follow other schemes
    /// (curl speaks `file://` and `ftp://`) or fail with less helpful errors.
    package var hasHTTPURL: Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return false }
        return true
    }

    /// Keeps `dump(_:)` and debuggers from printing the `Authorization` header or a body that
    /// may hold a password or refresh token: header names are shown, values are not.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "method": method, "url": description,
            "headers": headers.fields.map { "\($0.name): <redacted>" },
            "body": body.map { "<\($0.count) bytes>" } ?? "none",
            "timeout": timeout as Any, "followsRedirects": followsRedirects,
        ], displayStyle: .struct)
    }
}

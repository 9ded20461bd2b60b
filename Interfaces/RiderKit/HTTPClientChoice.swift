import Foundation
import RiderDomain
import RiderInfrastructure

/// Which HTTP stack ``RiderKit/live(configuration:)`` sends requests with.
public enum HTTPClientChoice: String, Hashable, Sendable, CaseIterable {
    /// AsyncHTTPClient on SwiftNIO: the default, measured several times faster than URLSession
    /// on Linux and scaling with concurrent requests (docs/performance.md).
    case asyncHTTPClient = "async-http-client"
    /// Foundation's URLSession (curl on Linux), for a system where only it can reach the
    /// server (for example a proxy setting only curl understands).
    case urlSession = "urlsession"

    /// Parses the `http_client` setting: `async-http-client` (or `ahc`) or `urlsession`.
    public init?(setting: String) {
        switch setting.lowercased() {
        case "async-http-client", "asynchttpclient", "ahc": self = .asyncHTTPClient
        case "urlsession", "url-session", "foundation": self = .urlSession
        default: return nil
        }
    }

    /// A transport of this kind with RiderKit's limits (no redirects, bounded response size).
    /// - Parameters:
    ///   - timeout: used when a request names none.
    ///   - proxies: for AsyncHTTPClient, which reads no environment itself; URLSession (curl)
    ///     reads the same variables on its own.
    public func makeTransport(timeout: TimeInterval, proxies: ProxyEnvironment) -> any HTTPTransport {
        switch self {
        case .asyncHTTPClient:
            AsyncHTTPClientTransport(configuration: .init(timeout: timeout, proxies: proxies))
        case .urlSession:
            URLSessionTransport(configuration: .init(timeout: timeout))
        }
    }
}

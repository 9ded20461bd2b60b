import Foundation
import RiderDomain

/// Which requests a scripted reply of ``StubTransport`` answers.
///
/// Usually a method and a path (`StubRoute(.get, "/users/u_000001")`), compared with the
/// request URL's decoded path so the query does not matter; or any predicate, for routes that
/// depend on a header or the body.
public struct StubRoute: Sendable, CustomStringConvertible {
    /// How the route is shown in failure messages.
    public let description: String
    private let predicate: @Sendable (HTTPRequest) -> Bool

    /// Matches `method` and exactly `path` (without query; percent escapes decoded).
    /// - Parameters:
    ///   - method: the HTTP method to match.
    ///   - path: the URL path to match, including any base path prefix (`/v1/users`).
    public init(_ method: HTTPMethod, _ path: String) {
        description = "\(method) \(path)"
        predicate = { $0.method == method && $0.url.path == path }
    }

    /// Matches whatever `predicate` accepts.
    /// - Parameters:
    ///   - description: how the route is shown in failure messages.
    ///   - predicate: `true` for the requests this route answers.
    public init(_ description: String, where predicate: @escaping @Sendable (HTTPRequest) -> Bool) {
        self.description = description
        self.predicate = predicate
    }

    /// Matches every request.
    public static var any: StubRoute { StubRoute("any request") { _ in true } }

    /// Whether `request` belongs to this route.
    /// - Parameter request: a request the transport received.
    /// - Returns: `true` when the route answers it.
    public func matches(_ request: HTTPRequest) -> Bool { predicate(request) }
}

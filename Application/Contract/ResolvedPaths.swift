import Foundation

/// The URLs of one API configuration's paths sent without a query, each built once: building
/// `GET /auth/me`'s URL through `URLComponents` (two parses of the base URL and the result) was a
/// tenth of RiderKit's own work per request (docs/performance.md, "The request path").
///
/// Bounded: the first ``capacity`` paths stay, later ones are built each time as before, so a
/// client reading thousands of different users does not grow it without end. Foundation's lock,
/// as the inner layers import nothing else.
package final class ResolvedPaths: @unchecked Sendable {
    /// How many paths are kept.
    package static let capacity = 64

    private let configuration: APIConfiguration
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var urls: [String: URL] = [:]

    /// - Parameter configuration: the base URL every path is resolved against.
    package init(configuration: APIConfiguration) {
        self.configuration = configuration
    }

    /// `configuration.url(for: path, query: query)`, from memory when the path was built before.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when the URL cannot be formed.
    package func url(for path: String, query: [(String, String)]) throws -> URL {
        guard query.isEmpty else { return try configuration.url(for: path, query: query) }
        if let url = lock.withLock({ urls[path] }) { return url }
        let url = try configuration.url(for: path)
        lock.withLock {
            if urls.count < Self.capacity { urls[path] = url }
        }
        return url
    }

    /// How many paths are kept now: what a test reads.
    package var count: Int { lock.withLock { urls.count } }
}

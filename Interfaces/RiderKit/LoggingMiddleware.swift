import Foundation
import Logging
import RiderApplication
import RiderDomain

/// Logs each request's method, path and outcome — never headers, query strings or bodies,
/// which may hold tokens, passwords or search terms.
package struct LoggingMiddleware: HTTPMiddleware {
    private let logger: Logger

    package init(logger: Logger) {
        self.logger = logger
    }

    /// - Throws: whatever `next` throws, unchanged.
    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                          next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        let started = ContinuousClock.now
        logger.debug("→ \(request)")
        do {
            let response = try await next(request)
            logger.debug("← \(response.status) \(request) in \(Self.milliseconds(since: started)) ms")
            return response
        } catch {
            logger.debug("✗ \(request) after \(Self.milliseconds(since: started)) ms: \(error.localizedDescription)")
            throw error
        }
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - start
        return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }
}

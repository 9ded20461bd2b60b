import Foundation
import Logging
import RiderDomain

/// Logs each request's method, path and outcome — never headers, query strings or bodies,
/// which may hold tokens, passwords or search terms.
public struct LoggingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let logger: Logger

    public init(base: any HTTPTransport, logger: Logger) {
        self.base = base
        self.logger = logger
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let started = ContinuousClock.now
        logger.debug("→ \(request)")
        do {
            let response = try await base.send(request)
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

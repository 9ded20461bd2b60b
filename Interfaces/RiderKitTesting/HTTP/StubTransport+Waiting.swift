import Foundation
import RiderDomain
import Testing

extension StubTransport {
    /// Waits until at least `count` requests have arrived on `method path`, to line a test up
    /// with a request that is in flight.
    /// - Parameters:
    ///   - method: the method.
    ///   - path: the URL path (without query).
    ///   - count: how many requests to wait for.
    ///   - timeout: how long to wait at most.
    ///   - sourceLocation: where a timeout is reported; defaults to the calling line.
    /// - Throws: ``RiderError/timedOut`` (and an `Issue`) when they do not arrive in time;
    ///   `CancellationError` when cancelled.
    public func waitForRequests(
        _ method: HTTPMethod, _ path: String, count: Int = 1, timeout: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while self.count(method, path) < count {
            guard ContinuousClock.now < deadline else {
                Issue.record("no \(count) request(s) to \(method) \(path) within \(timeout)", sourceLocation: sourceLocation)
                throw RiderError.timedOut
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}

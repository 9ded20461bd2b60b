import Foundation
import RiderDomain

/// Sends a request again, after a backoff, when the network failed or the server said "try
/// again" — but only when repeating it is safe, and as the request's ``RequestOptions/retryPolicy``
/// says.
///
/// In the pipeline it sits outside the session's step, so every attempt carries a valid token.
package struct RetryMiddleware: HTTPMiddleware {
    private let clock: any Clock
    private let random: @Sendable () -> Double
    private let metrics: any MetricsRecorder

    /// - Parameters:
    ///   - clock: waits out the delays, so tests need not sleep.
    ///   - random: a number in `0..<1` for jitter; injected so tests are repeatable.
    ///   - metrics: told of every retry.
    package init(clock: any Clock, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                metrics: any MetricsRecorder = NoMetrics()) {
        self.clock = clock
        self.random = random
        self.metrics = metrics
    }

    /// - Throws: the last attempt's error; `CancellationError` at once when the task is cancelled,
    ///   also in the middle of a backoff.
    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                          next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        let policy = options.retryPolicy
        let attempts = RetryPolicy.allowsRetry(of: request) ? policy.maxAttempts : 1
        var attempt = 1
        while true {
            try Task.checkCancellation()
            let outcome: Result<HTTPResponse, any Error>
            do {
                outcome = .success(try await next(request))
            } catch {
                outcome = .failure(error)
            }
            guard attempt < attempts, let delay = retryDelay(after: outcome, retry: attempt, policy: policy) else {
                return try outcome.get()
            }
            metrics.record(.retry(method: request.method))
            try await clock.sleep(for: delay)
            attempt += 1
        }
    }

    /// The wait before retrying, or `nil` when `outcome` must be returned as it is.
    private func retryDelay(after outcome: Result<HTTPResponse, any Error>, retry: Int,
                            policy: RetryPolicy) -> TimeInterval? {
        switch outcome {
        case .failure(let error):
            guard let error = error as? RiderError else { return nil }
            switch error.code {
            // A connection that failed at once may work a moment later. A timeout is not tried
            // again: the configured timeout is what the caller agreed to wait, and three attempts
            // made a 15 s timeout a 45 s wait with nothing to show for it.
            case .serverUnreachable: return policy.delay(beforeRetry: retry, random: random())
            default: return nil
            }
        case .success(let response):
            guard RetryPolicy.retryableStatuses.contains(response.status) else { return nil }
            let backoff = policy.delay(beforeRetry: retry, random: random())
            guard let header = response.headers["Retry-After"] else { return backoff }
            guard let asked = retryAfter(header, response: response) else { return backoff }
            // A server asking for a longer pause than we are willing to wait gets its answer back.
            return asked <= policy.maximumRetryAfter ? max(asked, backoff) : nil
        }
    }

    /// `Retry-After` in seconds, from delta-seconds or an HTTP-date measured against the
    /// response's own `Date` (so a device clock that is off does not distort it).
    private func retryAfter(_ value: String, response: HTTPResponse) -> TimeInterval? {
        RetryAfter.seconds(value, now: response.headers["Date"].flatMap(HTTPDate.parse) ?? clock.now)
    }
}

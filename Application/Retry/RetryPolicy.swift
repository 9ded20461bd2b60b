import Foundation
import RiderDomain

/// When and how often a failed request is sent again.
///
/// A value on each ``Endpoint``: reads retry by default, writes only when they are safe to repeat
/// (see ``allowsRetry(of:)``); the token endpoint is never retried.
package struct RetryPolicy: Hashable, Sendable {
    /// How long to wait before each retry.
    package enum Backoff: Hashable, Sendable {
        /// Retry at once.
        case none
        /// The same delay before every retry.
        case fixed(TimeInterval)
        /// `base × multiplier^(retry − 1)`, at most `max`.
        case exponential(base: TimeInterval, multiplier: Double, max: TimeInterval)
        /// Exponential backoff with full jitter: a random delay between 0 and the exponential one,
        /// so many clients that failed together do not come back together.
        case jitter(base: TimeInterval, multiplier: Double, max: TimeInterval)
    }

    package var backoff: Backoff
    /// Attempts in all, the first included; 1 means never retry.
    package var maxAttempts: Int
    /// The longest `Retry-After` honoured. A server asking for more is not retried: the caller
    /// gets `RiderError.rateLimited(retryAfter:)` with the server's figure instead.
    package var maximumRetryAfter: TimeInterval

    package init(backoff: Backoff, maxAttempts: Int, maximumRetryAfter: TimeInterval = 30) {
        self.backoff = backoff
        self.maxAttempts = max(1, maxAttempts)
        self.maximumRetryAfter = max(0, maximumRetryAfter)
    }

    /// Never retry.
    package static let none = RetryPolicy(backoff: .none, maxAttempts: 1)
    /// Three attempts with jittered exponential backoff from 0.5 s up to 5 s.
    package static let standard = RetryPolicy(
        backoff: .jitter(base: 0.5, multiplier: 2, max: 5), maxAttempts: 3)

    /// The default for a method: ``standard`` for methods that may be repeated, ``none`` for POST.
    package static func `default`(for method: HTTPMethod) -> RetryPolicy {
        method == .post ? .none : .standard
    }

    /// Statuses that say "try again" (RFC 9110 and common practice).
    package static let retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// Whether sending `request` twice is safe: GET, HEAD, OPTIONS, PUT and DELETE are
    /// idempotent; PATCH only when `If-Match` makes a repeat fail instead of applying twice;
    /// POST never.
    package static func allowsRetry(of request: HTTPRequest) -> Bool {
        if request.method.isIdempotent || request.method.rawValue == "OPTIONS" { return true }
        return request.method == .patch && request.headers["If-Match"] != nil
    }

    /// The delay before retry number `retry` (1 for the first retry).
    /// - Parameters:
    ///   - retry: which retry this is, 1 for the first.
    ///   - random: a number in `0..<1`, injected so jitter is testable.
    package func delay(beforeRetry retry: Int, random: Double) -> TimeInterval {
        let exponent = Double(max(0, retry - 1))
        switch backoff {
        case .none: return 0
        case .fixed(let delay): return max(0, delay)
        case .exponential(let base, let multiplier, let cap):
            return min(cap, base * pow(multiplier, exponent))
        case .jitter(let base, let multiplier, let cap):
            return min(cap, base * pow(multiplier, exponent)) * min(max(random, 0), 1)
        }
    }
}

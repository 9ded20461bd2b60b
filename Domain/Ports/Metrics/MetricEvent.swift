import Foundation

/// One thing RiderKit did, as a ``MetricsRecorder`` receives it. No event carries a token, a
/// password, a URL or a user's data: only what can be counted.
public enum MetricEvent: Hashable, Sendable {
    /// One attempt at an HTTP request (each retry is an attempt of its own).
    case request(method: HTTPMethod, outcome: RequestOutcome)
    /// A request is about to be sent again after a failure or a "try again" answer.
    case retry(method: HTTPMethod)
    /// The session engine asked the server for a new access token.
    case refresh(RefreshOutcome)
    /// A user was looked up in the cache.
    case cacheLookup(hit: Bool)

    /// How an attempt ended.
    public enum RequestOutcome: Hashable, Sendable {
        /// An HTTP status arrived, of any class.
        case status(Int)
        /// No answer: the server was unreachable, the connection broke or the answer was unusable.
        case failed
        /// The request timed out.
        case timedOut
    }

    /// How a refresh ended.
    public enum RefreshOutcome: String, Hashable, Sendable {
        /// A new access token was stored.
        case renewed
        /// The server refused the refresh token: the session has expired for good.
        case rejected
        /// The server could not be asked (network, 5xx); the session was kept.
        case failed
    }
}

import Foundation

/// Sends one HTTP request and returns the response, whatever its status.
///
/// The port between RiderKit and the network. Adapters (URLSession, a test stub,
/// a recorder) implement it; cross-cutting behaviour (bearer tokens, refresh, retry)
/// wraps it as decorators in the application layer.
public protocol HTTPTransport: Sendable {
    /// - Returns: the response for any status code, including 4xx and 5xx.
    /// - Throws: ``RiderError/serverUnreachable(reason:underlying:)`` or ``RiderError/timedOut`` when no
    ///   response arrived, ``RiderError/invalidConfiguration(_:underlying:)`` for an unusable URL, and
    ///   `CancellationError` when the calling task was cancelled.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

import Foundation
import RiderDomain

/// Tells a `MetricsRecorder` how every attempt at a request ended.
///
/// The composition root puts it right around the adapter, under the retry and the session
/// engine, so each attempt (a retry, a refresh, the request sent again after one) counts once.
public struct MeasuringTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let metrics: any MetricsRecorder

    public init(base: any HTTPTransport, metrics: any MetricsRecorder) {
        self.base = base
        self.metrics = metrics
    }

    /// - Throws: whatever `base` throws, unchanged.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            let response = try await base.send(request)
            metrics.record(.request(method: request.method, outcome: .status(response.status)))
            return response
        } catch RiderError.timedOut {
            metrics.record(.request(method: request.method, outcome: .timedOut))
            throw RiderError.timedOut
        } catch is CancellationError {
            // Not an outcome of the request: the caller stopped waiting.
            throw CancellationError()
        } catch {
            metrics.record(.request(method: request.method, outcome: .failed))
            throw error
        }
    }
}

import Foundation
import RiderDomain

/// Tells a `MetricsRecorder` how every attempt at a request ended.
///
/// The innermost step of the pipeline, right around the adapter, under the retry and the session
/// engine, so each attempt (a retry, a refresh, the request sent again after one) counts once.
package struct MeasuringMiddleware: HTTPMiddleware {
    private let metrics: any MetricsRecorder

    package init(metrics: any MetricsRecorder) {
        self.metrics = metrics
    }

    /// - Throws: whatever `next` throws, unchanged.
    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                          next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        do {
            let response = try await next(request)
            metrics.record(.request(method: request.method, outcome: .status(response.status)))
            return response
        } catch RiderError.Code.timedOut {
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

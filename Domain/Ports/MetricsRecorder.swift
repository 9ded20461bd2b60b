import Foundation

/// Receives what RiderKit did (requests, retries, refreshes, cache lookups), so an embedding
/// program can count it with the metrics system of its choice.
///
/// Calls come from many tasks at once and must return quickly: count, do not do I/O.
/// RiderKit ships ``NoMetrics`` (the default) and a swift-metrics adapter in RiderInfrastructure.
public protocol MetricsRecorder: Sendable {
    func record(_ event: MetricEvent)
}

import Foundation

/// Records nothing: the default ``MetricsRecorder``.
public struct NoMetrics: MetricsRecorder {
    public init() {}
    public func record(_ event: MetricEvent) {}
}

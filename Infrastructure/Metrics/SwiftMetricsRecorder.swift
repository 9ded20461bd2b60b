import CoreMetrics
import Foundation
import RiderDomain
import Synchronization

/// Counts RiderKit's events with swift-metrics, in whatever backend the embedding program
/// bootstrapped (`MetricsSystem.bootstrap(…)`: Prometheus, StatsD, OpenTelemetry…).
///
/// | counter | dimensions |
/// |---|---|
/// | `rider_http_requests_total` | `method`, `status` (`200`, `404`, … or `failed`, `timeout`) |
/// | `rider_http_retries_total` | `method` |
/// | `rider_session_refreshes_total` | `outcome` (`renewed`, `rejected`, `failed`) |
/// | `rider_cache_lookups_total` | `result` (`hit`, `miss`) |
///
/// The label prefix (`rider`) can be changed. Counters are made once per label and dimension
/// set and reused.
public final class SwiftMetricsRecorder: MetricsRecorder {
    private let prefix: String
    private let factory: (any MetricsFactory)?
    private let counters = Mutex<[CounterKey: Counter]>([:])

    private struct CounterKey: Hashable {
        let label: String
        let dimensions: [String]
    }

    /// - Parameters:
    ///   - prefix: put in front of every counter's label.
    ///   - factory: where the counters go; `nil` (the default) uses the bootstrapped
    ///     `MetricsSystem`. Tests pass their own (`TestMetrics`) instead of bootstrapping.
    public init(prefix: String = "rider", factory: (any MetricsFactory)? = nil) {
        self.prefix = prefix
        self.factory = factory
    }

    public func record(_ event: MetricEvent) {
        switch event {
        case .request(let method, let outcome):
            let status = switch outcome {
            case .status(let code): String(code)
            case .failed: "failed"
            case .timedOut: "timeout"
            }
            increment("http_requests_total", [("method", method.rawValue), ("status", status)])
        case .retry(let method):
            increment("http_retries_total", [("method", method.rawValue)])
        case .refresh(let outcome):
            increment("session_refreshes_total", [("outcome", outcome.rawValue)])
        case .cacheLookup(let hit):
            increment("cache_lookups_total", [("result", hit ? "hit" : "miss")])
        }
    }

    private func increment(_ name: String, _ dimensions: [(String, String)]) {
        let label = "\(prefix)_\(name)"
        let key = CounterKey(label: label, dimensions: dimensions.flatMap { [$0.0, $0.1] })
        let counter = counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = factory.map { Counter(label: label, dimensions: dimensions, factory: $0) }
                ?? Counter(label: label, dimensions: dimensions)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }
}

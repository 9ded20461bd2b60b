import Foundation

/// Timings of one scenario, in milliseconds.
struct Measurement {
    var samples: [Double]

    var p50: Double { percentile(0.50) }
    var p99: Double { percentile(0.99) }
    var total: Double { samples.reduce(0, +) }

    func percentile(_ fraction: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))
        return sorted[index]
    }

    /// Runs `body` once and returns its wall time in milliseconds.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return milliseconds(ContinuousClock.now - start)
    }

    /// Runs `body` once and returns its wall time in milliseconds.
    static func time(_ body: @Sendable () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return milliseconds(ContinuousClock.now - start)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}

import Foundation

/// Runs a request-shaped closure many times, alone or from concurrent tasks, and times each call.
enum Load {
    struct Result {
        var latencies = Measurement(samples: [])
        var wallMilliseconds = 0.0
        var failures = 0

        var requestsPerSecond: Double {
            wallMilliseconds > 0 ? Double(latencies.samples.count) / (wallMilliseconds / 1_000) : 0
        }

        mutating func merge(_ other: Result) {
            latencies.samples += other.latencies.samples
            wallMilliseconds += other.wallMilliseconds
            failures += other.failures
        }
    }

    /// `requests` calls of `body`, split evenly over `concurrency` tasks that each call it in turn.
    /// A call that throws counts as a failure (and its time is not a latency sample).
    static func run(requests: Int, concurrency: Int, _ body: @escaping @Sendable () async throws -> Void) async -> Result {
        let workers = max(1, min(concurrency, requests))
        let start = ContinuousClock.now
        var result = await withTaskGroup(of: Result.self) { group in
            for worker in 0..<workers {
                let share = requests / workers + (worker < requests % workers ? 1 : 0)
                group.addTask {
                    var partial = Result()
                    partial.latencies.samples.reserveCapacity(share)
                    for _ in 0..<share {
                        let began = ContinuousClock.now
                        do {
                            try await body()
                            partial.latencies.samples.append(Measurement.milliseconds(ContinuousClock.now - began))
                        } catch {
                            partial.failures += 1
                        }
                    }
                    return partial
                }
            }
            var all = Result()
            for await partial in group {
                all.latencies.samples += partial.latencies.samples
                all.failures += partial.failures
            }
            return all
        }
        result.wallMilliseconds = Measurement.milliseconds(ContinuousClock.now - start)
        return result
    }
}

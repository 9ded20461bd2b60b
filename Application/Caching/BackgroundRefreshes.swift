import Foundation

/// The refreshes `CachePolicy.staleWhileRevalidate` starts after answering, one per key at a
/// time, so a burst of reads of one entry sends one request.
///
/// A short-lived program (the CLI) calls ``waitForAll()`` before it exits so the refresh is not
/// cut off; tests call it to observe the refresh without sleeping.
package actor BackgroundRefreshes {
    private var running: [String: Task<Void, Never>] = [:]

    package init() {}

    /// Starts `operation` unless a refresh for `key` is already running.
    /// - Parameters:
    ///   - key: what is being refreshed (for example `user:u_000042`).
    ///   - operation: the refresh; its failures are its own to handle (the answer is already out).
    package func start(_ key: String, _ operation: @escaping @Sendable () async -> Void) {
        guard running[key] == nil else { return }
        running[key] = Task {
            await operation()
            self.finish(key)
        }
    }

    /// Waits until every refresh started so far, and any they start, has finished.
    package func waitForAll() async {
        while let task = running.values.first {
            await task.value
        }
    }

    /// How many refreshes are running.
    package var count: Int { running.count }

    private func finish(_ key: String) { running[key] = nil }
}

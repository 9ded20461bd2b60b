public import Foundation
import ServiceLifecycle

/// A reference server that is listening; stop it with ``stop()``.
public final class RunningReferenceServer: Sendable {
    /// Where the server listens, without a trailing slash, e.g. `http://127.0.0.1:41234`.
    public let baseURL: URL
    /// The server's data, with hooks for tests (issued tokens, counters, forced expiry).
    public let store: ReferenceStore

    private let group: ServiceGroup
    private let task: Task<Void, Never>

    init(baseURL: URL, store: ReferenceStore, group: ServiceGroup, task: Task<Void, Never>) {
        self.baseURL = baseURL
        self.store = store
        self.group = group
        self.task = task
    }

    /// Stops accepting connections, lets requests in flight finish (at most a few seconds)
    /// and returns when the port is released. Calling it again does nothing.
    public func stop() async {
        await group.triggerGracefulShutdown()
        await task.value
    }

    /// Returns when the server has stopped, by ``stop()`` or by a termination signal.
    public func waitUntilStopped() async {
        await task.value
    }
}

import Foundation
import Synchronization

/// A first-come, first-served limit on requests in flight, so that a request's timeout starts
/// when it can be sent rather than while it queues.
///
/// AsyncHTTPClient counts the time a request waits for one of its pooled connections against
/// the request's deadline; with URLSession the timeout only ever measured silence on the wire.
/// In a measurement, 300 concurrent requests through 8 connections to a busy server timed out in
/// the queue, though no single exchange was slow. Waiting for a slot here instead keeps the
/// timeout's meaning (how long the server may take to answer) whatever the burst size.
///
/// A lock rather than an actor: a request that finds a free slot — nearly every one — takes it
/// without suspending, and a release never hops; an actor cost two executor hops per request on
/// the path `docs/performance.md` measures.
final class ConnectionSlots: Sendable {
    private struct State {
        var inUse = 0
        var nextTicket: UInt64 = 0
        var waiting: [(ticket: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a free slot.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func acquire() async throws {
        let ticket: UInt64? = state.withLock { state in
            if state.inUse < limit {
                state.inUse += 1
                return nil
            }
            state.nextTicket += 1
            return state.nextTicket
        }
        guard let ticket else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock: a cancellation handler that ran before this point found
                // nothing to cancel, so the waiter must not be queued.
                let cancelled = state.withLock { state in
                    if Task.isCancelled { return true }
                    state.waiting.append((ticket, continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// How many are queued for a slot now: what a test waits on instead of sleeping.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Hands the slot to the longest waiter, or frees it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if state.waiting.isEmpty {
                state.inUse -= 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume()
    }
}

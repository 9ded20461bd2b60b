import Foundation

/// A first-come, first-served limit on requests in flight, so that a request's timeout starts
/// when it can be sent rather than while it queues.
///
/// AsyncHTTPClient counts the time a request waits for one of its pooled connections against
/// the request's deadline; with URLSession the timeout only ever measured silence on the wire.
/// Measured here: 300 concurrent requests through 8 connections to a busy server timed out in the
/// queue, though no single exchange was slow. Waiting for a slot here instead keeps the timeout's
/// meaning (how long the server may take to answer) whatever the burst size.
actor ConnectionSlots {
    private let limit: Int
    private var inUse = 0
    private var waiting: [(id: UUID, continuation: CheckedContinuation<Void, any Error>)] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a free slot.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func acquire() async throws {
        if inUse < limit {
            inUse += 1
            return
        }
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiting.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// Hands the slot to the longest waiter, or frees it.
    func release() {
        if waiting.isEmpty {
            inUse -= 1
        } else {
            waiting.removeFirst().continuation.resume()
        }
    }

    private func cancel(_ id: UUID) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}

import Foundation
@testable import RiderInfrastructure
import Synchronization
import Testing

@Suite("ConnectionSlots: requests in flight are limited, first come first served")
struct ConnectionSlotsTests {
    /// How many hold a slot now, and the most that ever did at once.
    final class Occupancy: Sendable {
        private let counts = Mutex((now: 0, most: 0))
        func enter() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func leave() { counts.withLock { $0.now -= 1 } }
        var most: Int { counts.withLock { $0.most } }
    }

    /// The order in which waiters got in.
    final class Arrivals: Sendable {
        private let order = Mutex<[Int]>([])
        func record(_ waiter: Int) { order.withLock { $0.append(waiter) } }
        var all: [Int] { order.withLock { $0 } }
    }

    @Test("200 tasks through 8 slots: never more than 8 inside, every task gets in")
    func limitHolds() async throws {
        let slots = ConnectionSlots(limit: 8)
        let occupancy = Occupancy()
        let finished = try await withThrowingTaskGroup(of: Void.self, returning: Int.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    try await slots.acquire()
                    occupancy.enter()
                    await Task.yield()
                    occupancy.leave()
                    slots.release()
                }
            }
            var finished = 0
            for try await _ in group { finished += 1 }
            return finished
        }
        #expect(finished == 200)
        #expect(occupancy.most <= 8)
    }

    /// Returns once `count` tasks are queued on `slots`; yields meanwhile (no timing assumed).
    static func untilWaiting(_ count: Int, on slots: ConnectionSlots) async throws {
        while slots.waitingCount < count {
            try Task.checkCancellation()
            await Task.yield()
        }
    }

    @Test("waiters get the slot in the order they asked")
    func firstComeFirstServed() async throws {
        let slots = ConnectionSlots(limit: 1)
        try await slots.acquire()
        let arrivals = Arrivals()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for waiter in 0..<5 {
                group.addTask {
                    try await slots.acquire()
                    arrivals.record(waiter)
                    slots.release()
                }
                // This waiter is queued before the next one asks: waited for, not slept on.
                try await Self.untilWaiting(waiter + 1, on: slots)
            }
            slots.release()
            try await group.waitForAll()
        }
        #expect(arrivals.all == [0, 1, 2, 3, 4])
    }

    @Test("a waiter cancelled while waiting throws CancellationError, and the slot goes to the next one")
    func cancellation() async throws {
        let slots = ConnectionSlots(limit: 1)
        try await slots.acquire()
        let cancelled = Task { try await slots.acquire() }
        try await Self.untilWaiting(1, on: slots)
        let next = Task { try await slots.acquire() }
        try await Self.untilWaiting(2, on: slots)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        slots.release()
        try await next.value
        slots.release()
        // The slot is free again: one more acquisition does not wait.
        try await slots.acquire()
    }

    @Test("a task already cancelled before it asks is not queued")
    func cancelledBeforeAsking() async throws {
        let slots = ConnectionSlots(limit: 1)
        try await slots.acquire()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await slots.acquire()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        slots.release()
        try await slots.acquire()
    }
}

import CLibSecret
import Foundation
import Synchronization
@testable import RiderInfrastructure
import Testing

@Suite("Keyring calls are bounded")
struct KeyringCallTests {
    @Test("a call still blocked when the timeout passes is cancelled through its GCancellable and reported as timed out")
    func watchdogCancels() async {
        await #expect(throws: VaultError.timedOut(after: .milliseconds(50))) {
            try await KeyringCall.run(timeout: .milliseconds(50)) { cancellable throws(VaultError) in
                // Stands in for a D-Bus call to a stuck daemon: it returns only when cancelled.
                while g_cancellable_is_cancelled(cancellable) == 0 { usleep(1_000) }
                throw .unavailable(reason: "Operation was cancelled")
            }
        }
    }

    /// libsecret ends a cancelled prompt by asking the provider to dismiss it, then waits for the
    /// provider's `Completed` signal; a provider that is stuck, or never completes that prompt,
    /// never sends it, and the cancelled call never returns.
    @Test("a call that ignores its cancellation is given up on shortly after its timeout, and keeps the turn until it returns")
    func abandonsACallThatIgnoresCancellation() async throws {
        let started = Shared(false), release = Shared(false), returned = Shared(false), ranLate = Shared(false)
        // Without the deadline the caller would wait for the call itself: let that be 60 s, not forever.
        let backstop = Task {
            try? await Task.sleep(for: .seconds(60))
            release.withLock { $0 = true }
        }
        defer { backstop.cancel() }
        let clock = ContinuousClock()
        var waited = Duration.zero
        // Other tests' calls share the process-wide turn; a call that found it taken for its whole
        // 50 ms timed out without running, so try until this one ran.
        for _ in 0..<100 where !started.withLock({ $0 }) {
            let start = clock.now
            await #expect(throws: VaultError.timedOut(after: .milliseconds(50))) {
                try await KeyringCall.run(timeout: .milliseconds(50), abandoningAfter: .milliseconds(100)) { _ throws(VaultError) in
                    started.withLock { $0 = true }
                    while !release.withLock({ $0 }) { usleep(1_000) }
                    returned.withLock { $0 = true }
                    return 1
                }
            }
            waited = clock.now - start
        }
        try #require(started.withLock { $0 }, "the call never had its turn")
        // A hang detector, not a speed limit: the call itself would hold the caller for 60 s.
        #expect(waited < .seconds(30), "the caller waited \(waited) for a call that does not end when cancelled")
        #expect(!returned.withLock { $0 }, "the call was given up on, not waited for")

        // Still inside libsecret, it keeps the turn: the next call times out without running.
        await #expect(throws: VaultError.timedOut(after: .milliseconds(50))) {
            try await KeyringCall.run(timeout: .milliseconds(50)) { _ throws(VaultError) in ranLate.withLock { $0 = true } }
        }
        #expect(!ranLate.withLock { $0 })
        release.withLock { $0 = true }
        while !returned.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test("a call that finishes in time returns its value")
    func finishesInTime() async throws {
        let value = try await KeyringCall.run(timeout: .seconds(30)) { _ throws(VaultError) in 42 }
        #expect(value == 42)
    }

    @Test("calls from many threads take turns: never two in libsecret at once")
    func callsTakeTurns() async throws {
        let inside = Shared(0), most = Shared(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await KeyringCall.run(timeout: .seconds(30)) { _ throws(VaultError) in
                        let now = inside.withLock { $0 += 1; return $0 }
                        most.withLock { $0 = max($0, now) }
                        usleep(2_000)
                        inside.withLock { $0 -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(most.withLock { $0 } == 1)
    }

    @Test("a call waiting behind a stuck one times out on its own timeout, without running, while the stuck one still holds the turn")
    func waitingCountsAgainstTheTimeout() async throws {
        let started = Shared(false), release = Shared(false), ranLate = Shared(false)
        let stuck = Task {
            try await KeyringCall.run(timeout: .seconds(60)) { _ throws(VaultError) in
                started.withLock { $0 = true }
                while !release.withLock({ $0 }) { usleep(1_000) }
                return 1
            }
        }
        defer { release.withLock { $0 = true } }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: VaultError.timedOut(after: .milliseconds(50))) {
            try await KeyringCall.run(timeout: .milliseconds(50)) { _ throws(VaultError) in ranLate.withLock { $0 = true } }
        }
        #expect(!ranLate.withLock { $0 })
        release.withLock { $0 = true }
        #expect(try await stuck.value == 1)
    }
}

/// A value the test and its keyring calls share.
private final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { value.withLock { body(&$0) } }
}

import Foundation
import TestSupport
import Testing

/// The deadline the keyring tests put on `secret-tool`, which has no timeout of its own: on a
/// stuck provider it would hold the test run for ever.
@Suite("A test helper's child process is killed at its deadline")
struct ProcessDeadlineTests {
    @Test("a child still running at its deadline is killed, and the helper learns that it was")
    func killsAtTheDeadline() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["30"]
        let start = ContinuousClock.now
        try process.run()
        let deadline = ProcessDeadline(process, after: .milliseconds(200))
        process.waitUntilExit()
        #expect(deadline.finish())
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("a child that ends in time is left alone")
    func leavesAFinishedChildAlone() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        let deadline = ProcessDeadline(process, after: .seconds(30))
        process.waitUntilExit()
        #expect(!deadline.finish())
        #expect(process.terminationStatus == 0)
    }
}

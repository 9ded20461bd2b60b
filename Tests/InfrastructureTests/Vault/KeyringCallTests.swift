import CLibSecret
import Foundation
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

    @Test("a call that finishes in time returns its value")
    func finishesInTime() async throws {
        let value = try await KeyringCall.run(timeout: .seconds(30)) { _ throws(VaultError) in 42 }
        #expect(value == 42)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Ends a helper process (a browser driver, a provider) for sure: SIGTERM, and SIGKILL if it
    /// is still running after `grace`. Children started by Foundation here inherit the test
    /// process's blocked signals, SIGTERM among them, so a polite request alone can go unheard
    /// and `waitUntilExit()` would wait for ever.
    func stop(grace: Duration = .seconds(5)) async {
        guard isRunning else { return }
        terminate()
        let deadline = ContinuousClock.now.advanced(by: grace)
        while isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}

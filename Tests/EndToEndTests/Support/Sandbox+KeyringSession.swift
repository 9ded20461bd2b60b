import Foundation
import TestSupport

extension Sandbox {
    /// Runs `rider ARGUMENTS` in a keyring session of its own (a fresh bus and GNOME Keyring from
    /// scripts/with-keyring.sh, ended after), its `login` collection locked first when
    /// `lockingCollection`: locking the shared session's keyring would disturb the other tests.
    /// Bounded by `timeout` 60 s, so a hang fails the test rather than stalling the suite.
    /// - Parameter setUp: a shell command run in the session first, before the collection is
    ///   locked (to store an item, say).
    func riderInKeyringSession(_ arguments: [String], lockingCollection: Bool, setUp: String? = nil,
                               environment extra: [String: String] = [:]) async throws -> RiderRun {
        let rider = try RiderProcess.executable()
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let lock = "dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets "
            + "org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["60", repository.appendingPathComponent("scripts/with-keyring.sh").path,
                             "sh", "-c", (setUp.map { "\($0) && " } ?? "") + (lockingCollection ? "\(lock) && " : "")
                                + "exec \"$0\" \"$@\"", rider.path]
            + arguments
        process.environment = environment.merging(extra) { $1 }
        let output = UninheritedFiles.pipe(), errors = UninheritedFiles.pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let (out, err): (Data, Data) = await withCheckedContinuation { continuation in
            Thread {
                let out = output.fileHandleForReading.readDataToEndOfFile()
                let err = errors.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (out, err))
            }.start()
        }
        let run = RiderRun(arguments: arguments, status: process.terminationStatus,
                           stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
        await transcript.record(run)
        return run
    }
}

import Foundation
import TestSupport
import Testing

/// Whether the Secret Service tests must run: inside `scripts/with-keyring.sh` (which sets
/// `RIDER_TEST_KEYRING=1`, as `make test` does) or on CI. There a missing keyring fails the
/// tests instead of skipping them; elsewhere (a bare `swift test`) they are skipped.
enum Keyring {
    static var expected: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["RIDER_TEST_KEYRING"] == "1" || environment["CI"] == "true"
    }

    /// The bound on each keyring call in these tests: generous, because the whole suite starts at
    /// once and a keyring that is merely slow then must not fail a test about what it stores.
    /// (The timeout itself is tested with its own values in KeyringCallTests.)
    static let timeout: Duration = .seconds(15)

    /// A service origin no other test uses, so tests sharing one keyring never see each other's items.
    static func uniqueService() -> String {
        "https://api-\(UUID().uuidString.lowercased().prefix(8)).example.test"
    }
}

/// Runs `secret-tool` (libsecret-tools) against the same session bus as the tests.
enum SecretTool {
    struct Failed: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let stderr: String
        var description: String { "secret-tool \(arguments.joined(separator: " ")) exited \(status): \(stderr)" }
    }

    struct TimedOut: Error, CustomStringConvertible {
        let arguments: [String]
        var description: String {
            "secret-tool \(arguments.joined(separator: " ")) did not finish within \(SecretTool.deadline); it was killed"
        }
    }

    /// How long one secret-tool run may take before it is killed. secret-tool has no timeout of
    /// its own: each D-Bus call waits up to 25 s for a provider that is stuck (one that dies with
    /// calls in flight answers at once), and a prompt waits for ever.
    static let deadline: Duration = .seconds(30)

    /// - Returns: standard output followed by standard error (where `search` prints the
    ///   attributes); throws ``Failed`` when secret-tool fails (lookup of nothing exits 1) and
    ///   ``TimedOut`` when it runs past ``deadline``.
    @discardableResult
    static func run(_ arguments: [String], stdin: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/secret-tool")
        process.arguments = arguments
        let output = UninheritedFiles.pipe(), errors = UninheritedFiles.pipe(), input = UninheritedFiles.pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        let watch = ProcessDeadline(process, after: deadline)
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if watch.finish() { throw TimedOut(arguments: arguments) }
        guard process.terminationStatus == 0 else {
            throw Failed(arguments: arguments, status: process.terminationStatus,
                         stderr: String(decoding: err, as: UTF8.self))
        }
        return String(decoding: out + err, as: UTF8.self)
    }
}

import Foundation
import RiderReferenceServer
import TestSupport
import Testing

/// The whole keyring life of a session through the `rider` CLI, on whichever real provider the
/// wrapper script started: gnome-keyring (`scripts/with-keyring.sh`) or KeePassXC
/// (`scripts/with-keepassxc.sh`); `make test` runs it on both. Each command is a process of its
/// own, so every step reads what the previous one wrote to the keyring; `secret-tool`, a
/// program that is not RiderKit, reads the item between steps.
///
/// Before the vault updated items through `Item.SetSecret`, `rider session refresh` failed on
/// KeePassXC 2.7.4 (exit 11, the keyring "did not answer") after the server had already rotated
/// the refresh token.
@Suite("rider on a real Secret Service provider: login, three refreshes, whoami, logout",
       .enabled(if: ProcessInfo.processInfo.environment["RIDER_TEST_KEYRING"] == "1"
                    || ProcessInfo.processInfo.environment["CI"] == "true",
                "needs a keyring: run through scripts/with-keyring.sh or scripts/with-keepassxc.sh (make test does)"))
struct KeyringProviderFlowTests {
    let provider = ProcessInfo.processInfo.environment["RIDER_TEST_KEYRING_PROVIDER"] ?? "unknown"

    @Test("every rotated refresh token lands in the one keyring item, which another program reads; logout removes it")
    func loginRefreshThriceWhoamiLogout() async throws {
        let bus = try #require(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"],
                               "the keyring tests run inside a D-Bus session")
        try await withSandboxedReferenceServer { server, sandbox in
            let origin = try Self.origin(of: server.baseURL)
            // Forced, so a keyring that fails cannot hide behind the automatic fallback to the file.
            let keyring = ["DBUS_SESSION_BUS_ADDRESS": bus, "RIDER_VAULT": "secret-service"]

            let login = try await sandbox.rider(["login", "--email", Demo.email, "--password-stdin"],
                                                environment: keyring, stdin: Demo.password + "\n")
            #expect(login.status == 0, "\(provider): \(login)")
            #expect(sandbox.sessionFile() == nil, "the session went to the keyring, not to a file")
            var refreshToken = try Self.storedRefreshToken(service: origin)

            for round in 1...3 {
                let refresh = try await sandbox.rider(["session", "refresh"], environment: keyring)
                #expect(refresh.status == 0, "\(provider), refresh \(round): \(refresh)")
                let rotated = try Self.storedRefreshToken(service: origin)
                #expect(rotated != refreshToken, "\(provider), refresh \(round): the keyring kept the spent refresh token")
                let issued = await server.store.issuedTokens()
                #expect(issued.contains(rotated), "\(provider), refresh \(round): the stored token is not the server's")
                refreshToken = rotated
                let items = try SecretToolProcess.run(["search", "--all", "xdg:schema", "org.riderkit.Session",
                                                       "service", origin])
                #expect(items.split(separator: "\n").filter { $0.hasPrefix("[") }.count == 1,
                        "\(provider): one item, updated in place")
            }

            let whoami = try await sandbox.rider(["whoami"], environment: keyring)
            #expect(whoami.status == 0, "\(provider): \(whoami)")

            // The automatic vault picks the keyring and names its collection, even one without a label.
            let status = try await sandbox.rider(["vault", "status", "--json"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus])
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any],
                                      "\(status)")
            #expect(fields["backend"] as? String == "secret-service", "\(provider): \(status)")
            #expect(fields["signed_in"] as? Bool == true, "\(provider): \(status)")
            let reason = try #require(fields["reason"] as? String)
            #expect(!reason.contains("keyring \"\""), "\(provider): \(reason)")

            let logout = try await sandbox.rider(["logout"], environment: keyring)
            #expect(logout.status == 0, "\(provider): \(logout)")
            #expect(throws: SecretToolProcess.Failed.self, "logout removed the item") {
                try SecretToolProcess.run(["lookup", "xdg:schema", "org.riderkit.Session", "service", origin])
            }
            #expect(try await sandbox.rider(["whoami"], environment: keyring).status == 4)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    /// `scheme://host:port`, the vault's `service` attribute.
    private static func origin(of url: URL) throws -> String {
        let scheme = try #require(url.scheme), host = try #require(url.host)
        return url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    /// The refresh token in the keyring item for `service`, read by secret-tool and decoded as
    /// docs/vault.md describes the secret: `riderkit:v2:` and base64url of the session's JSON.
    private static func storedRefreshToken(service: String) throws -> String {
        try KeyringSecret.refreshToken(in: SecretToolProcess.run(["lookup", "xdg:schema", "org.riderkit.Session",
                                                                  "service", service]))
    }
}

/// `secret-tool` (libsecret-tools) on the test's session bus.
private enum SecretToolProcess {
    struct Failed: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "secret-tool exited \(status)" }
    }

    struct TimedOut: Error, CustomStringConvertible {
        let arguments: [String]
        var description: String { "secret-tool \(arguments.joined(separator: " ")) did not finish within 30 s; it was killed" }
    }

    /// - Returns: standard output and standard error together (`search` prints to both).
    /// - Throws: ``TimedOut`` after 30 s: secret-tool has no timeout of its own (each D-Bus call
    ///   waits up to 25 s for a stuck provider, a prompt for ever).
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/secret-tool")
        process.arguments = arguments
        let output = UninheritedFiles.pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ProcessDeadline(process, after: .seconds(30))
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if deadline.finish() { throw TimedOut(arguments: arguments) }
        guard process.terminationStatus == 0 else { throw Failed(status: process.terminationStatus) }
        return String(decoding: data, as: UTF8.self)
    }
}

import Foundation

/// A throwaway HOME (with its XDG folders) for running `rider`, which records everything the
/// runs printed so a test can check that no secret ever appeared.
struct Sandbox: Sendable {
    let root: URL
    let environment: [String: String]
    let transcript = Transcript()
    /// The encrypted session file's passphrase in every sandbox.
    static let vaultPassphrase = "e2e vault passphrase"

    /// - Parameters:
    ///   - server: becomes `RIDER_BASE_URL`; `nil` leaves the server unconfigured.
    ///   - requestTimeout: becomes `RIDER_TIMEOUT`; `nil` leaves rider's default (15 s).
    init(server: URL?, requestTimeout: Int? = 120) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("rider-e2e-\(UUID().uuidString)", isDirectory: true)
        let home = root.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("io"), withIntermediateDirectories: true)
        var environment = [
            "HOME": home.path,
            "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            "PATH": "/usr/bin:/bin",
            // No D-Bus here, so the automatic vault falls back to the encrypted file, opened with this.
            "RIDER_VAULT_PASSPHRASE": Self.vaultPassphrase,
            // Each process unlocks the file itself, so a test of a wrong or changed passphrase sees
            // it refused; VaultUnlockTests turn the kernel keyring on (every key there is the user's,
            // shared by all tests at once).
            "RIDER_VAULT_UNLOCK_TIMEOUT": "0",
        ]
        environment["RIDER_BASE_URL"] = server?.absoluteString
        // A hang detector, not a speed limit: on a loaded 2-core machine the whole suite starting
        // at once once kept the in-process server from answering a login within 15 s. Tests of
        // timeouts set their own, and a test that shows the default asks for none.
        environment["RIDER_TIMEOUT"] = requestTimeout.map(String.init)
        self.environment = environment
    }

    /// Runs `rider` with this sandbox's environment and records its output.
    func rider(_ arguments: String..., stdin: String? = nil) async throws -> RiderRun {
        let run = try await RiderProcess.run(arguments, environment: environment, stdin: stdin,
                                             scratch: root.appendingPathComponent("io"))
        await transcript.record(run)
        return run
    }

    /// Runs `rider` with this sandbox's environment plus `extra` and records its output;
    /// `started` is told its process id.
    func rider(_ arguments: [String], environment extra: [String: String], stdin: String? = nil,
               started: @escaping @Sendable (Int32) -> Void = { _ in }) async throws -> RiderRun {
        let run = try await RiderProcess.run(arguments, environment: environment.merging(extra) { $1 }, stdin: stdin,
                                             scratch: root.appendingPathComponent("io"), started: started)
        await transcript.record(run)
        return run
    }

    /// Logs in as the reference server's demo account.
    func loginAsDemo(_ extra: String...) async throws -> RiderRun {
        let arguments = ["login", "--email", Demo.email, "--password-stdin"] + extra
        let run = try await RiderProcess.run(arguments, environment: environment, stdin: Demo.password + "\n",
                                             scratch: root.appendingPathComponent("io"))
        await transcript.record(run)
        return run
    }

    /// The encrypted session file the CLI wrote, if any (the first account's: `session.<key>.vault`).
    func sessionFile() -> URL? {
        sessionFiles().first
    }

    /// Every encrypted session file the CLI wrote, one per account.
    func sessionFiles() -> [URL] {
        let state = root.appendingPathComponent("home/.local/state")
        guard let files = FileManager.default.enumerator(at: state, includingPropertiesForKeys: nil) else { return [] }
        return files.compactMap { $0 as? URL }.filter {
            $0.lastPathComponent.hasPrefix("session.") && $0.pathExtension == "vault"
        }
    }

    /// Puts an old copy of the session file back, as a second machine or a backup would.
    func restoreSessionFile(_ data: Data, at file: URL) throws {
        try data.write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}

import Foundation

/// A throwaway HOME for `rider` processes: their own XDG folders, the server to talk to, and a
/// vault (the keyring of the surrounding D-Bus session, or the encrypted file with a fixed
/// passphrase), so the benchmark never touches the user's own session.
struct CLIEnvironment {
    let folder: URL
    let server: ServerProcess

    static var keyringPresent: Bool { ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil }

    init(server: ServerProcess, name: String) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-bench-\(name)-\(UUID().uuidString)")
        self.server = server
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The environment for one HOME; `vault` is `file` or `secret-service`.
    func environment(home name: String, vault: String) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        let home = folder.appendingPathComponent(name)
        var environment = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": home.path,
                           "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                           "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
                           "RIDER_BASE_URL": server.baseURL.absoluteString, "RIDER_VAULT": vault]
        if vault == "file" {
            environment["RIDER_VAULT_PASSPHRASE"] = "rider-bench-vault"
        } else {
            for key in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] { environment[key] = inherited[key] }
        }
        return environment
    }

    /// `rider login` as the demo account in that environment.
    func login(_ rider: URL, _ environment: [String: String]) throws {
        let status = try ChildProcess.run(rider, ["login", "--email", ServerProcess.demoEmail, "--password-stdin"],
                                          environment: environment, input: ServerProcess.demoPassword + "\n")
        guard status == 0 else { throw BenchFailure("rider login exited \(status)") }
    }
}

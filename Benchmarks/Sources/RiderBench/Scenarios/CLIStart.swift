import Foundation

/// How long a person waits for `rider`: a whole process, start to exit, next to a process that
/// does nothing (`/bin/true`), which is the floor any command-line program pays.
struct CLIStart {
    var runs = 20

    static let smoke = CLIStart(runs: 2)

    func run(on server: ServerProcess) async throws -> ScenarioReport {
        var report = ScenarioReport(scenario: "CLI start: `rider` processes, start to exit (\(runs) runs each)",
                                    floorDescription: "/bin/true, a process that does nothing")
        let rider = try Binaries.url("rider")
        let nothing = URL(fileURLWithPath: "/bin/true")
        let sandbox = CLIEnvironment(server: server, name: "cli")
        defer { sandbox.remove() }
        let makeEnvironment = sandbox.environment(home:vault:)

        // (name, the environment to sign in with, the environment of the timed runs)
        var perProcess = makeEnvironment("file-vault", "file")
        perProcess["RIDER_VAULT_UNLOCK_TIMEOUT"] = "0"
        var vaults = [("encrypted-file vault (scrypt once per process)", perProcess, perProcess)]
        // Unlocked once by the sign-in, then every timed run without a passphrase: only the key
        // kept in the kernel keyring can open the file, so no run pays scrypt.
        var unlockedOnce = makeEnvironment("file-vault-kept", "file")
        unlockedOnce["RIDER_VAULT_UNLOCK_TIMEOUT"] = "900"
        var withoutPassphrase = unlockedOnce
        withoutPassphrase["RIDER_VAULT_PASSPHRASE"] = nil
        vaults.append(("encrypted-file vault, unlocked once (kernel keyring)", unlockedOnce, withoutPassphrase))
        if CLIEnvironment.keyringPresent {
            let keyring = makeEnvironment("keyring-vault", "secret-service")
            vaults.insert(("Secret Service vault", keyring, keyring), at: 0)
        } else {
            FileHandle.standardError.write(Data("rider-bench: no session bus, so no keyring rows (make bench provides one)\n".utf8))
        }

        var floor = Measurement(samples: [])
        for _ in 0..<runs { floor.samples.append(try ChildProcess.run(nothing, [], environment: [:]).milliseconds) }
        var failures: [String] = []
        // rider-core beside the measured `rider` (its front, #34): the same commands straight
        // through it show what the front saves on help and what its `execv` adds to the rest.
        let coreURL = rider.deletingLastPathComponent().appendingPathComponent("rider-core")
        let core = FileManager.default.isExecutableFile(atPath: coreURL.path) ? coreURL : nil
        func time(_ arguments: [String], _ environment: [String: String], through program: URL? = nil) throws -> Measurement {
            var measurement = Measurement(samples: [])
            for _ in 0..<runs {
                let outcome = try ChildProcess.run(program ?? rider, arguments, environment: environment)
                if outcome.status != 0 { failures.append("rider \(arguments.joined(separator: " ")) exited \(outcome.status)") }
                measurement.samples.append(outcome.milliseconds)
            }
            return measurement
        }

        let help = try time(["--help"], makeEnvironment("help", "file"))
        let linking = Binaries.staticCLI == nil ? "" : " (static Swift runtime, as `make install` builds it)"
        report.rows.append(ReportRow(name: "`rider --help` p50\(linking)", riderKit: help.p50, floor: floor.p50, unit: "ms"))
        if let core {
            let direct = try time(["--help"], makeEnvironment("help", "file"), through: core)
            report.rows.append(ReportRow(name: "`rider --help` p50: the front (left) vs rider-core itself (right)",
                                         riderKit: help.p50, floor: direct.p50, unit: "ms"))
        }
        var cachedBearer: [String: Measurement] = [:]
        for (vaultName, signIn, environment) in vaults {
            try sandbox.login(rider, signIn)
            let online = try time(["whoami"], environment)
            let requestsBefore = try await server.requestCount()
            let cached = try time(["whoami", "--policy", "cache-first"], environment)
            cachedBearer[vaultName] = cached
            let requestsDuring = try await server.requestCount() - requestsBefore
            report.rows.append(ReportRow(name: "`rider whoami` from the cache, \(vaultName) p50", riderKit: cached.p50,
                                         floor: floor.p50, unit: "ms"))
            report.rows.append(ReportRow(name: "`rider whoami` from the cache, \(vaultName) p99", riderKit: cached.p99,
                                         floor: floor.p99, unit: "ms"))
            report.rows.append(ReportRow(name: "`rider whoami` from the server, \(vaultName) p50", riderKit: online.p50,
                                         floor: floor.p50, unit: "ms"))
            if let core {
                let direct = try time(["whoami"], environment, through: core)
                report.rows.append(ReportRow(
                    name: "`rider whoami` from the server, \(vaultName) p50: through the front (left) vs rider-core itself (right)",
                    riderKit: online.p50, floor: direct.p50, unit: "ms"))
            }
            report.check("`rider whoami --policy cache-first` with the \(vaultName) never asked the server", requestsDuring == 0,
                         "\(requestsDuring) requests reached the server")
        }
        // #31: a DPoP-bound session (its key kept and loaded with it) costs a `whoami` from the
        // cache no more than 1 ms over a bearer one, in the same vault.
        let unlockedName = vaults.first { $0.0.hasPrefix("encrypted-file vault, unlocked once") }?.0 ?? ""
        if let bearer = cachedBearer[unlockedName] {
            var boundSignIn = makeEnvironment("file-vault-kept-dpop", "file")
            boundSignIn["RIDER_VAULT_UNLOCK_TIMEOUT"] = "900"
            boundSignIn["RIDER_DPOP"] = "required"
            try sandbox.login(rider, boundSignIn)
            var bound = boundSignIn
            bound["RIDER_VAULT_PASSPHRASE"] = nil
            let shown = try ChildProcess.output(rider, ["session", "show"], environment: bound)
            report.check("the DPoP row's session is DPoP-bound (`rider session show`)", shown.contains("bound to a DPoP key"),
                         shown.split(separator: "\n").first { $0.hasPrefix("tokens") }.map(String.init) ?? "no tokens line")
            _ = try time(["whoami"], bound)  // fills the cache, as for the bearer rows
            let requestsBefore = try await server.requestCount()
            let cached = try time(["whoami", "--policy", "cache-first"], bound)
            let requestsDuring = try await server.requestCount() - requestsBefore
            report.check("`rider whoami --policy cache-first` with the DPoP-bound session never asked the server",
                         requestsDuring == 0, "\(requestsDuring) requests reached the server")
            report.rows.append(ReportRow(
                name: "`rider whoami` from the cache, \(unlockedName), p50: DPoP-bound session (left) vs bearer (right)",
                riderKit: cached.p50, floor: bearer.p50, unit: "ms"))
        }
        report.check("every rider run exited 0", failures.isEmpty, failures.isEmpty ? "\(runs) runs per row" : failures.joined(separator: "; "))
        return report
    }
}

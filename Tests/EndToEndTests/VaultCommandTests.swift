import Foundation
import RiderReferenceServer
import Testing

@Suite("rider vault: choosing, inspecting, migrating and resetting the vault")
struct VaultCommandTests {
    /// Runs `rider` in `sandbox` with extra environment variables, recording the run.
    private func rider(_ sandbox: Sandbox, _ arguments: [String], environment extra: [String: String] = [:],
                       stdin: String? = nil) async throws -> RiderRun {
        let run = try await RiderProcess.run(arguments, environment: sandbox.environment.merging(extra) { $1 },
                                             stdin: stdin, scratch: sandbox.root.appendingPathComponent("io"))
        await sandbox.transcript.record(run)
        return run
    }

    private func status(_ run: RiderRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
    }

    @Test("with no session bus, or a dead one, automatic falls back to the encrypted file without waiting for the timeout",
          arguments: [nil, "unix:path=/nonexistent/riderkit-bus"])
    func fallsBackWithoutDBus(bus: String?) async throws {
        let sandbox = try Sandbox(server: URL(string: "http://127.0.0.1:9"))
        defer { sandbox.remove() }
        var environment = ["RIDER_KEYRING_TIMEOUT": "60"]
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus
        let run = try await rider(sandbox, ["vault", "status", "--json"], environment: environment)

        #expect(run.status == 0, "\(run)")
        let status = try status(run)
        #expect(status["backend"] as? String == "encrypted-file", "\(run)")
        #expect((status["reason"] as? String)?.contains("falling back to the encrypted file") == true, "\(run)")
        #expect(status["setting"] as? String == "automatic")
        // The longest keyring timeout was allowed; the fallback must come from failing fast, not from
        // waiting it out — which the reason would say ("did not answer within"), whatever the clock.
        #expect((status["reason"] as? String)?.contains("did not answer") == false, "\(run)")
    }

    @Test("--verbose logs the vault choice and its reason at info level")
    func logsTheChoice() async throws {
        let sandbox = try Sandbox(server: URL(string: "http://127.0.0.1:9"))
        defer { sandbox.remove() }
        let run = try await rider(sandbox, ["vault", "status", "--verbose"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("vault: using encrypted-file"), "\(run)")
        #expect(run.stdout.contains("vault     encrypted-file"), "\(run)")
    }

    @Test("a wrong passphrase is exit 11 naming the file and leaves it as it was; vault reset is the way out")
    func wrongPassphraseThenReset() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let file = try #require(sandbox.sessionFile())
            let before = try Data(contentsOf: file)

            let wrong = try await rider(sandbox, ["whoami"], environment: ["RIDER_VAULT_PASSPHRASE": "not it"])
            #expect(wrong.status == 11, "\(wrong)")
            #expect(wrong.stderr.contains(file.path) && wrong.stderr.contains("passphrase"), "\(wrong)")
            #expect(try Data(contentsOf: file) == before)
            let login = try await rider(sandbox, ["login", "--email", Demo.email, "--password-stdin"],
                                        environment: ["RIDER_VAULT_PASSPHRASE": "not it"], stdin: Demo.password + "\n")
            #expect(login.status == 11, "\(login)")
            #expect(try Data(contentsOf: file) == before)

            let reset = try await rider(sandbox, ["vault", "reset"], environment: ["RIDER_VAULT_PASSPHRASE": "not it"])
            #expect(reset.status == 0, "\(reset)")
            #expect(sandbox.sessionFile() == nil)
            #expect(try await sandbox.rider("whoami").status == 4)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("with no passphrase and no terminal, login says how to give one (exit 11) and writes nothing")
    func noPassphrase() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let login = try await rider(sandbox, ["login", "--email", Demo.email, "--password-stdin"],
                                        environment: ["RIDER_VAULT_PASSPHRASE": ""], stdin: Demo.password + "\n")
            #expect(login.status == 11, "\(login)")
            #expect(login.stderr.contains("RIDER_VAULT_PASSPHRASE"), "\(login)")
            #expect(sandbox.sessionFile() == nil)
            // Not signed in is still just that: no passphrase is needed to find there is no file.
            let whoami = try await rider(sandbox, ["whoami"], environment: ["RIDER_VAULT_PASSPHRASE": ""])
            #expect(whoami.status == 4, "\(whoami)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("a first sign-in without a keyring says what the new file is, asks again after a short or mismatched passphrase, and keeps the third try")
    func newPassphrasePrompt() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            var environment = sandbox.environment
            environment["RIDER_VAULT_PASSPHRASE"] = nil
            environment["RIDER_VAULT"] = "encrypted-file"
            let rider = try RiderProcess.executable().path
            let terminal = try TerminalSession.start(
                "printf '%s\\n' '\(Demo.password)' | '\(rider)' login --email \(Demo.email) --password-stdin",
                environment: environment)
            defer { terminal.stop() }
            let why = try await terminal.waitFor("New vault passphrase:")
            #expect(why.contains("encrypted file") && why.contains("rider vault reset"), "\(why)")
            try terminal.type("short")
            try await terminal.waitFor("use at least 8")
            try terminal.type("long enough one")
            try await terminal.waitFor("Repeat the passphrase:")
            try terminal.type("a different one")
            try await terminal.waitFor("The two entries differ. Try again.")
            try terminal.type("long enough one")
            try await terminal.waitUntil("asked to repeat again") { $0.components(separatedBy: "Repeat the passphrase:").count == 3 }
            try terminal.type("long enough one")
            let done = try await terminal.waitFor("EXIT=")
            #expect(done.contains("EXIT=0"), "\(done)")
            let whoami = try await sandbox.rider(["whoami"], environment: ["RIDER_VAULT": "encrypted-file",
                                                                           "RIDER_VAULT_PASSPHRASE": "long enough one"])
            #expect(whoami.status == 0, "the third try keeps the session: \(whoami)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("three failed tries at a new passphrase end the sign-in saying so, not asking for a variable; vault passphrase without a terminal names its own flag")
    func newPassphraseGivenUp() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            var environment = sandbox.environment
            environment["RIDER_VAULT_PASSPHRASE"] = nil
            environment["RIDER_VAULT"] = "encrypted-file"
            let rider = try RiderProcess.executable().path
            let terminal = try TerminalSession.start(
                "printf '%s\\n' '\(Demo.password)' | '\(rider)' login --email \(Demo.email) --password-stdin",
                environment: environment)
            defer { terminal.stop() }
            for attempt in 1...3 {
                try await terminal.waitUntil("asked for a new passphrase \(attempt) times") {
                    $0.components(separatedBy: "New vault passphrase:").count == attempt + 1
                }
                try terminal.type("short")
            }
            let done = try await terminal.waitFor("EXIT=")
            #expect(done.contains("EXIT=11") && done.contains("no passphrase was chosen"), "\(done)")
            #expect(!done.contains("RIDER_VAULT_PASSPHRASE"), "a terminal was used: \(done)")

            #expect(try await sandbox.loginAsDemo().status == 0)
            let noTerminal = try await sandbox.rider(["vault", "passphrase"], environment: [:])
            #expect(noTerminal.status != 0 && noTerminal.stderr.contains("--new-passphrase-stdin"), "\(noTerminal)")
        }
    }

    /// `rider whoami` on a terminal with no passphrase variable: it asks for the existing file's passphrase.
    private func unlockOnTerminal(_ sandbox: Sandbox) throws -> TerminalSession {
        var environment = sandbox.environment
        environment["RIDER_VAULT_PASSPHRASE"] = nil
        environment["RIDER_VAULT"] = "encrypted-file"
        return try TerminalSession.start("'\(try RiderProcess.executable().path)' whoami", environment: environment)
    }

    @Test("a wrong passphrase typed to unlock the file is asked for again, saying so, and the right one then opens it")
    func wrongPassphraseTypedIsAskedAgain() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let terminal = try unlockOnTerminal(sandbox)
            defer { terminal.stop() }
            try await terminal.waitFor("Vault passphrase:")
            try terminal.type("not the passphrase")
            try await terminal.waitFor("Wrong passphrase, try again.")
            try await terminal.waitUntil("asked again") { $0.components(separatedBy: "Vault passphrase:").count == 3 }
            try terminal.type(Sandbox.vaultPassphrase)
            let done = try await terminal.waitFor("EXIT=")
            #expect(done.contains("EXIT=0") && done.contains(Demo.email), "\(done)")
            #expect(!done.contains(Sandbox.vaultPassphrase) && !done.contains("not the passphrase"), "no echo: \(done)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("three wrong passphrases typed end with exit 11, the file unchanged, and vault reset named for a forgotten one")
    func wrongPassphraseTypedThrice() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let file = try #require(sandbox.sessionFile())
            let before = try Data(contentsOf: file)
            let terminal = try unlockOnTerminal(sandbox)
            defer { terminal.stop() }
            for attempt in 1...3 {
                try await terminal.waitUntil("asked for the passphrase \(attempt) times") {
                    $0.components(separatedBy: "Vault passphrase:").count == attempt + 1
                }
                try terminal.type("not the passphrase")
            }
            let done = try await terminal.waitFor("EXIT=")
            // The terminal wraps long lines at 120 columns; the error is read as one line.
            let text = done.replacingOccurrences(of: "\n", with: "")
            #expect(done.contains("EXIT=11") && text.contains("the passphrase does not open \(file.path)"), "\(done)")
            #expect(text.contains("`rider vault reset` removes the file"), "\(done)")
            #expect(!text.contains("RIDER_VAULT_PASSPHRASE"), "a terminal was used: \(done)")
            #expect(done.components(separatedBy: "Vault passphrase:").count == 4, "three asks, no fourth: \(done)")
            #expect(try Data(contentsOf: file) == before)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("vault passphrase re-encrypts the file: the old passphrase stops working, the new one works; a piped one shorter than 8 characters is refused as a typed one is")
    func changePassphrase() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let file = try #require(sandbox.sessionFile())
            let before = try Data(contentsOf: file)
            let short = try await rider(sandbox, ["vault", "passphrase", "--new-passphrase-stdin"], stdin: "7 chars\n")
            #expect(short.status == 2 && short.stderr.contains("at least 8"), "\(short)")
            #expect(try Data(contentsOf: file) == before, "nothing was changed")
            let change = try await rider(sandbox, ["vault", "passphrase", "--new-passphrase-stdin"], stdin: "brand new\n")
            #expect(change.status == 0, "\(change)")
            #expect(try await sandbox.rider("whoami").status == 11)
            let whoami = try await rider(sandbox, ["whoami"], environment: ["RIDER_VAULT_PASSPHRASE": "brand new"])
            #expect(whoami.status == 0, "\(whoami)")
            #expect(!change.stdout.contains("brand new") && !change.stderr.contains("brand new"))
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("with a keyring on the bus, automatic uses it, and migrate moves the session to the file and back",
          .enabled(if: ProcessInfo.processInfo.environment["RIDER_TEST_KEYRING"] == "1"
                       || ProcessInfo.processInfo.environment["CI"] == "true",
                   "needs a keyring: run through scripts/with-keyring.sh (make test does)"))
    func keyringAndMigration() async throws {
        let bus = try #require(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"],
                               "the keyring tests run inside a D-Bus session")
        try await withSandboxedReferenceServer { server, sandbox in
            let environment = ["DBUS_SESSION_BUS_ADDRESS": bus]
            let login = try await rider(sandbox, ["login", "--email", Demo.email, "--password-stdin"],
                                        environment: environment, stdin: Demo.password + "\n")
            #expect(login.status == 0, "\(login)")
            #expect(sandbox.sessionFile() == nil, "the session went to the keyring, not to a file")

            let inKeyring = try status(try await rider(sandbox, ["vault", "status", "--json"], environment: environment))
            #expect(inKeyring["backend"] as? String == "secret-service")
            #expect(inKeyring["unlocked"] as? Bool == true)
            #expect(inKeyring["user_id"] as? String == Demo.userID)
            #expect((inKeyring["item_label"] as? String)?.hasPrefix("rider: \(Demo.email) on ") == true)

            let toFile = try await rider(sandbox, ["vault", "migrate", "--to", "encrypted-file"], environment: environment)
            #expect(toFile.status == 0, "\(toFile)")
            #expect(sandbox.sessionFile() != nil)
            let whoami = try await rider(sandbox, ["whoami"], environment: environment.merging(["RIDER_VAULT": "encrypted-file"]) { $1 })
            #expect(whoami.status == 0, "\(whoami)")

            let back = try await rider(sandbox, ["vault", "migrate", "--to", "secret-service"], environment: environment)
            #expect(back.status == 0, "\(back)")
            #expect(sandbox.sessionFile() == nil)
            #expect(try await rider(sandbox, ["whoami"], environment: environment).status == 0)

            #expect(try await rider(sandbox, ["logout"], environment: environment).status == 0)
            let after = try status(try await rider(sandbox, ["vault", "status", "--json"], environment: environment))
            #expect(after["signed_in"] as? Bool == false)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }
}

import Foundation
import RiderDomain
import RiderInfrastructure

// Many tasks saving, loading and removing sessions at once in each real vault, through two vault
// values on the same storage (two processes' worth of in-memory state sharing only the file and
// its lock, or the keyring item). Beyond what TSan reports, every session read back must be one
// that some task saved, whole.

/// The session a task saves in a round, recognisable from its access token.
func raceSession(_ label: String) -> Session {
    Session(accessToken: "access-\(label)", refreshToken: "refresh-\(label)",
            expiresAt: Date(timeIntervalSince1970: 1_800_000_000), userID: "u_000001", role: .user,
            issuedAt: Date(timeIntervalSince1970: 1_799_999_000))
}

/// Whether `session` is exactly one of the sessions ``raceSession(_:)`` makes: not torn, not mixed.
func isWhole(_ session: Session) -> Bool {
    guard session.accessToken.hasPrefix("access-") else { return false }
    return session == raceSession(String(session.accessToken.dropFirst("access-".count)))
}

/// The storm shared by both vaults: `tasks` tasks, each saving through one vault and reading
/// through the other for `rounds` rounds; two of them also remove the session once, and every
/// third task reads through a vault value made on the spot (state that starts cold mid-storm).
func vaultStorm(tasks: Int, rounds: Int, first: any TokenVault, second: any TokenVault,
                fresh: @escaping @Sendable () -> any TokenVault) async -> (problems: Problems, operations: Int) {
    await withTaskGroup(of: (Problems, Int).self) { group in
        for task in 0..<tasks {
            group.addTask {
                var problems = Problems()
                var operations = 0
                let (mine, other) = task.isMultiple(of: 2) ? (first, second) : (second, first)
                for round in 0..<rounds {
                    do {
                        try await mine.saveSession(raceSession("\(task)-\(round)"))
                        let reader = task.isMultiple(of: 3) ? fresh() : other
                        // nil only after a removal; anything else must be a whole saved session.
                        if let loaded = try await reader.loadSession(), !isWhole(loaded) {
                            problems.add("read back a session nobody saved")
                        }
                        operations += 2
                        if task < 2, round == 1 {
                            try await other.removeSession()
                            operations += 1
                        }
                    } catch {
                        problems.add("task \(task) round \(round): \(error)")
                    }
                }
                return (problems, operations)
            }
        }
        var problems = Problems()
        var operations = 0
        for await (found, count) in group {
            problems.add(found)
            operations += count
        }
        return (problems, operations)
    }
}

/// After the storm: one more save through the first value reads back through the second, and a
/// removal leaves nothing.
func vaultSettles(_ name: String, first: any TokenVault, second: any TokenVault) async throws {
    let last = raceSession("final")
    try await first.saveSession(last)
    await check(try await second.loadSession() == last, "\(name): after the storm, the last save reads back from the other value")
    try await second.removeSession()
    await check(try await first.loadSession() == nil, "\(name): and a removal leaves no session")
}

func raceEncryptedFileVault() async throws {
    let folder = try ScratchFolder("vault")
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent("state/session.vault")
    // The shipped scrypt parameters: the derived key is cached per salt, so only the first save
    // and the first save after each removal (a new salt) derive it.
    let passphrase = VaultPassphrase.fixed("race-check passphrase")
    let first = EncryptedFileTokenVault(file: file, passphrase: passphrase)
    let second = EncryptedFileTokenVault(file: file, passphrase: passphrase)
    try await first.saveSession(raceSession("initial"))
    let (tasks, rounds) = (24, 4)
    let outcome = await vaultStorm(tasks: tasks, rounds: rounds, first: first, second: second) {
        EncryptedFileTokenVault(file: file, passphrase: passphrase)
    }
    await check(outcome.problems.isEmpty,
                "encrypted file vault: \(tasks) tasks × \(rounds) rounds, two vaults on one file "
                    + "(\(outcome.operations) saves, loads and removals): every read whole\(outcome.problems.summary)")
    try await vaultSettles("encrypted file vault", first: first, second: second)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        .filter { !$0.hasSuffix(".lock") }
    await check(leftovers.isEmpty, "encrypted file vault: no temporary file left behind (\(leftovers))")
}

/// Whether the Secret Service scenario must run: inside `scripts/with-keyring.sh` (which sets
/// `RIDER_TEST_KEYRING=1`, as `make race-check` does) or on CI, where a missing keyring is a
/// failure. Elsewhere (the binary run by hand) it is skipped with a note.
var keyringExpected: Bool {
    let environment = ProcessInfo.processInfo.environment
    return environment["RIDER_TEST_KEYRING"] == "1" || environment["CI"] == "true"
}

func raceSecretServiceVault() async throws {
    guard keyringExpected else {
        print("skip  Secret Service vault: no keyring expected (run through scripts/with-keyring.sh, as make race-check does)")
        return
    }
    // A service no one else uses. A generous timeout, so a slow runner cannot fail it: the race
    // check is about data races, the sanitized process runs many times slower than a normal
    // build, and a timeout would still count as a failure.
    let service = "https://race-\(UUID().uuidString.lowercased().prefix(8)).example.test"
    let timeout = Duration.seconds(60)
    let first = SecretServiceTokenVault(service: service, timeout: timeout)
    let second = SecretServiceTokenVault(service: service, timeout: timeout)
    let label = try await first.checkAvailable()
    await check(true, "Secret Service vault: keyring \"\(label)\" is there and unlocked")
    let (tasks, rounds) = (16, 3)
    let outcome = await vaultStorm(tasks: tasks, rounds: rounds, first: first, second: second) {
        SecretServiceTokenVault(service: service, timeout: timeout)
    }
    await check(outcome.problems.isEmpty,
                "Secret Service vault: \(tasks) tasks × \(rounds) rounds, two vaults on one item "
                    + "(\(outcome.operations) saves, loads and removals): every read whole\(outcome.problems.summary)")
    try await vaultSettles("Secret Service vault", first: first, second: second)
}

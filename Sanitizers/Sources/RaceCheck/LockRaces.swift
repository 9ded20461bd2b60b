import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure

/// Counts the holders inside a lock; the highest count seen must be 1.
private actor Occupancy {
    private var inside = 0
    private(set) var most = 0
    private(set) var entries = 0

    func enter() {
        inside += 1
        entries += 1
        most = max(most, inside)
    }

    func leave() { inside -= 1 }
}

func raceFileRefreshLock() async throws {
    let folder = try ScratchFolder("lock")
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent("state/refresh.lock")
    let occupancy = Occupancy()
    let (tasks, rounds) = (16, 5)
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<tasks {
            group.addTask {
                for _ in 0..<rounds {
                    // A lock value per acquisition, each opening the file itself, as separate
                    // processes do: only flock(2) keeps them apart.
                    try await FileRefreshLock(file: file).withLock {
                        await occupancy.enter()
                        try await Task.sleep(for: .microseconds(500))
                        await occupancy.leave()
                    }
                }
            }
        }
        try await group.waitForAll()
    }
    let (most, entries) = (await occupancy.most, await occupancy.entries)
    await check(most == 1 && entries == tasks * rounds,
                "file refresh lock: \(tasks) tasks × \(rounds) acquisitions on one file, one holder at a time "
                    + "(\(entries) entries, at most \(most) inside)")
}

/// Two session engines, as two processes have: each with its own encrypted-file vault value and
/// file refresh lock, sharing the session file, the lock file and the server. Every access token
/// is rejected at once; both storms must succeed with one refresh between them, the second engine
/// taking the session the first one stored instead of spending the refresh token again.
func raceTwoEnginesOnOneVault() async throws {
    let folder = try ScratchFolder("engines")
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent("state/session.vault")
    let lockFile = folder.url.appendingPathComponent("state/refresh.lock")
    let passphrase = VaultPassphrase.fixed("race-check passphrase")
    let server = FakeServer(accessToken: "access-0", refreshToken: "refresh-0")
    guard let baseURL = URL(string: "https://api.example.test") else { throw RiderError.invalidConfiguration("base URL") }
    let configuration = try APIConfiguration(baseURL: baseURL)
    let stored = Session(accessToken: "access-0", refreshToken: "refresh-0",
                         expiresAt: Date().addingTimeInterval(3600), userID: "u_000001", role: .user,
                         issuedAt: Date().addingTimeInterval(-60))
    try await EncryptedFileTokenVault(file: file, passphrase: passphrase).saveSession(stored)
    let engines = (0..<2).map { _ in
        SessionEngine(configuration: configuration, transport: server,
                      vault: EncryptedFileTokenVault(file: file, passphrase: passphrase),
                      clock: WallClock(), lock: FileRefreshLock(file: lockFile))
    }
    await server.expireAccessTokens()
    let perEngine = 200
    let results = await withTaskGroup(of: (succeeded: Int, errors: [String]).self) { group in
        for engine in engines {
            let api = APIClient(configuration: configuration, transport: server, sessions: engine)
            group.addTask { await storm(perEngine, api) }
        }
        var all: [(succeeded: Int, errors: [String])] = []
        for await result in group { all.append(result) }
        return all
    }
    let succeeded = results.map(\.succeeded).reduce(0, +)
    let errors = results.flatMap(\.errors)
    await check(succeeded == 2 * perEngine,
                "two engines on one vault file and lock file: \(2 * perEngine) concurrent 401s all succeed (\(errors.prefix(3)))")
    let grants = await server.refreshGrants
    await check(grants == 1, "two engines on one vault file and lock file: one refresh between them (\(grants))")
    let reloaded = try await EncryptedFileTokenVault(file: file, passphrase: passphrase).loadSession()
    await check(reloaded?.accessToken == "access-1", "the refreshed session is what the file holds")
}

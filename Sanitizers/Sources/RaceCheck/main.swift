import Foundation
import RiderApplication
import RiderDomain

// Concurrency scenarios of the session engine, and concurrent stress on the real vaults, file
// locks and SQLite user cache, run under ThreadSanitizer by `make race-check` (inside
// scripts/with-keyring.sh, for the Secret Service vault). A data race aborts the process
// (TSAN_OPTIONS=halt_on_error=1); a broken promise exits 1.

var failures = 0
@MainActor func check(_ condition: Bool, _ message: String) {
    if condition {
        print("ok    \(message)")
    } else {
        print("FAIL  \(message)")
        failures += 1
    }
}

func harness(expiresIn lifetime: TimeInterval) throws -> (FakeServer, SessionEngine, APIClient) {
    let server = FakeServer(accessToken: "access-0", refreshToken: "refresh-0")
    let configuration = try APIConfiguration(baseURL: URL(string: "https://api.example.test")!)
    let session = Session(accessToken: "access-0", refreshToken: "refresh-0",
                          expiresAt: Date().addingTimeInterval(lifetime), userID: "u_000001", role: .user,
                          issuedAt: Date().addingTimeInterval(-60))
    let sessions = SessionEngine(configuration: configuration, transport: server, vault: MemoryVault(session),
                                 clock: WallClock())
    return (server, sessions, APIClient(configuration: configuration, transport: server, sessions: sessions))
}

/// `count` concurrent authorized requests (the rider's profile) through `api`.
func storm(_ count: Int, _ api: APIClient) async -> (succeeded: Int, errors: [String]) {
    await withTaskGroup(of: String?.self) { group in
        for _ in 0..<count {
            group.addTask {
                do {
                    _ = try await api.send(API.myRider)
                    return nil
                } catch let error as RiderError {
                    return error.code.description  // "session_expired", "not_signed_in", …
                } catch {
                    return "\(error)"
                }
            }
        }
        var errors: [String] = []
        for await error in group { if let error { errors.append(error) } }
        return (count - errors.count, errors)
    }
}

/// 1. Reactive: the server rejects the token every request holds.
func reactiveStorm() async throws {
    let (server, sessions, api) = try harness(expiresIn: 3600)
    await server.expireAccessTokens()
    let result = await storm(1000, api)
    await check(result.succeeded == 1000, "1,000 concurrent 401s all succeed (\(result.errors.prefix(3)))")
    await check(await server.refreshGrants == 1, "1,000 concurrent 401s cause one refresh (\(await server.refreshGrants))")
    await check(await sessions.refreshCount == 1, "the engine counted one refresh")
}

/// 2. Proactive: the token is known to be expiring, so requests refresh before sending.
func proactiveStorm() async throws {
    let (server, _, api) = try harness(expiresIn: 5)
    let result = await storm(500, api)
    await check(result.succeeded == 500, "500 requests on an expiring token all succeed (\(result.errors.prefix(3)))")
    await check(await server.refreshGrants == 1, "500 requests on an expiring token cause one refresh")
}

/// 3. Observers and a logout racing a storm: no crash, no resurrected session.
func logoutDuringStorm() async throws {
    let (server, sessions, api) = try harness(expiresIn: 3600)
    await server.expireAccessTokens()
    let states = await sessions.states()
    let observer = Task { var seen = 0; for await _ in states { seen += 1 }; return seen }
    async let outcome = storm(300, api)
    try await Task.sleep(for: .milliseconds(2))
    try await sessions.end()
    let result = await outcome
    observer.cancel()
    let expected = result.errors.allSatisfy { $0 == "session_expired" || $0 == "not_signed_in" }
    await check(expected, "requests racing a logout either succeed or say the session ended (\(Set(result.errors)))")
    await check(try await sessions.currentSession() == nil, "a logout during a refresh stays a logout")
    _ = await observer.value
}

let scenarios: [(name: String, run: () async throws -> Void)] = [
    ("refresh storm", reactiveStorm),
    ("proactive refresh", proactiveStorm),
    ("logout during a storm", logoutDuringStorm),
    // The Infrastructure adapters, for real: files, flock(2), scrypt and AES-GCM, libsecret over
    // D-Bus to gnome-keyring, SQLite through GRDB.
    ("encrypted file vault", raceEncryptedFileVault),
    ("Secret Service vault", raceSecretServiceVault),
    ("file refresh lock", raceFileRefreshLock),
    ("two engines on one vault file", raceTwoEnginesOnOneVault),
    ("SQLite user cache", raceSQLiteUserCache),
    ("SQLite user cache eviction", raceSQLiteUserCacheEviction),
]

// `rider-race-check [WORD...]` runs only the scenarios whose names contain one of the words
// (`rider-race-check secret cache`), to repeat one while investigating; none runs them all.
let wanted = CommandLine.arguments.dropFirst().map { $0.lowercased() }
let chosen = scenarios.filter { scenario in wanted.isEmpty || wanted.contains { scenario.name.lowercased().contains($0) } }
guard !chosen.isEmpty else {
    print("no scenario matches \(wanted.joined(separator: " ")); scenarios: \(scenarios.map(\.name).joined(separator: ", "))")
    exit(2)
}
for (name, run) in chosen { await scenario(name, run) }

if failures > 0 {
    print("\(failures) check(s) failed")
    exit(1)
}
print("all race checks passed")

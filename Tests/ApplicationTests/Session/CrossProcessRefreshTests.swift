import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Session engine: two engines sharing one vault")
struct CrossProcessRefreshTests {
    @Test("two engines (as two processes) refreshing together spend the refresh token once; the second uses the first's session")
    func sharedVaultRefreshesOnce() async throws {
        let clock = ManualClock()
        let configuration = try Fixtures.configuration()
        let transport = StubTransport()
        transport.stub(.post, "/auth/token", times: 1) { _ in
            try await Task.sleep(for: .milliseconds(20))
            return .successful(Fixtures.tokenResponse(accessToken: "access-2", refreshToken: "refresh-2"))
        }
        let vault = SpyTokenVault(session: Fixtures.session())
        let lock = SerialRefreshLock()
        let first = SessionEngine(configuration: configuration, transport: transport, vault: vault, clock: clock, lock: lock)
        let second = SessionEngine(configuration: configuration, transport: transport, vault: vault, clock: clock, lock: lock)
        // Both load the same, now expired, session.
        _ = try await first.currentSession()
        _ = try await second.currentSession()
        clock.advance(by: 3601)

        async let a = first.validSession()
        async let b = second.validSession()
        let (sessionA, sessionB) = try await (a, b)

        #expect(sessionA.accessToken == "access-2")
        #expect(sessionB.accessToken == "access-2")
        #expect(transport.count(.post, "/auth/token") == 1)
        #expect(await first.refreshCount + second.refreshCount == 1)
    }

    @Test("an engine whose session was removed by another process's logout reports sessionExpired, not a refresh")
    func logoutElsewhere() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: "never")
        _ = try await harness.sessions.currentSession()
        try await harness.vault.removeSession()

        await #expect(throws: RiderError.sessionExpired) { try await harness.getRider() }
        #expect(harness.transport.count(.post, "/auth/token") == 0)
    }
}

/// A lock two engines in one test share, standing in for the file lock two processes share.
private actor SerialRefreshLock: RefreshLock {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        while held { await withCheckedContinuation { waiters.append($0) } }
        held = true
        defer {
            held = false
            if !waiters.isEmpty { waiters.removeFirst().resume() }
        }
        return try await body()
    }
}

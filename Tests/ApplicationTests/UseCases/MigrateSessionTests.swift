import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("MigrateSession")
struct MigrateSessionTests {
    @Test("the session is written to the destination, read back, and only then removed from the source")
    func moves() async throws {
        let source = SpyTokenVault(session: Fixtures.session())
        let destination = SpyTokenVault()

        #expect(try await MigrateSession(from: source, to: destination)())

        #expect(await destination.storedSession == Fixtures.session())
        #expect(await source.storedSession == nil)
        #expect(await destination.loadCount == 1, "read back after writing")
    }

    @Test("nothing stored in the source: nothing is written anywhere")
    func nothingToMove() async throws {
        let destination = SpyTokenVault()
        #expect(try await MigrateSession(from: SpyTokenVault(), to: destination)() == false)
        #expect(await destination.saveCount == 0)
    }

    @Test("when the destination cannot save, the session stays in the source")
    func failedWriteKeepsSource() async throws {
        let source = SpyTokenVault(session: Fixtures.session())
        let destination = SpyTokenVault()
        await destination.failSaves()

        let failure = await #expect(throws: RiderError.self) { try await MigrateSession(from: source, to: destination)() }
        #expect(failure?.code == .storage, "\(String(describing: failure))")
        #expect(await source.storedSession == Fixtures.session())
        #expect(await source.removeCount == 0)
    }

    @Test("when the destination cannot read back what it saved, the session stays in the source")
    func failedReadBackKeepsSource() async throws {
        let source = SpyTokenVault(session: Fixtures.session())
        let destination = SpyTokenVault()
        await destination.failLoads()

        let failure = await #expect(throws: RiderError.self) { try await MigrateSession(from: source, to: destination)() }
        #expect(failure?.code == .storage, "\(String(describing: failure))")
        #expect(await source.storedSession == Fixtures.session())
        #expect(await source.removeCount == 0)
    }
}

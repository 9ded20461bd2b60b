import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

@Suite("FileSportCatalogueCache (sports.json on disk)")
struct FileSportCatalogueCacheTests {
    static let catalogue = StoredSportCatalogue(
        sports: [Sport(id: "gravel", name: "Gravel"), Sport(id: "mtb", name: "Mountain bike")],
        storedAt: Date(timeIntervalSince1970: 1_735_787_045), expiresAt: Date(timeIntervalSince1970: 1_735_873_445))

    @Test("a saved catalogue reads back as saved, in a 0600 file; remove forgets it")
    func roundTrip() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("server/sports.json")
        let cache = FileSportCatalogueCache(file: file)
        #expect(await cache.load() == nil)

        try await cache.save(Self.catalogue)

        #expect(await FileSportCatalogueCache(file: file).load() == Self.catalogue, "another run reads it")
        #expect(try permissions(of: file) == 0o600)
        try await cache.remove()
        #expect(await cache.load() == nil)
        try await cache.remove()
    }

    @Test("a damaged or foreign-version file reads as no catalogue instead of failing",
          arguments: ["not json", #"{"version":2,"stored_at":"2025-01-02T03:04:05Z","expires_at":"2025-01-03T03:04:05Z","sports":[]}"#, ""])
    func damaged(contents: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("sports.json")
        try Data(contents.utf8).write(to: file)
        _ = chmod(file.path, 0o600)

        #expect(await FileSportCatalogueCache(file: file).load() == nil)
    }

    @Test("a folder that cannot be written is .storage naming the file")
    func unwritable() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // A regular file where the folder should be: no user, root included, can create inside it.
        let blocker = folder.url.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let cache = FileSportCatalogueCache(file: blocker.appendingPathComponent("sports.json"))

        let error = await #expect(throws: RiderError.self) { try await cache.save(Self.catalogue) }
        guard let riderError = error, riderError.code == .storage, case let what = riderError.detail ?? "" else {
            Issue.record("expected .storage, got \(String(describing: error))")
            return
        }
        #expect(what.contains("sports.json"))
    }
}

import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

@Suite("FileProviderMetadataCache (provider.json per issuer on disk)")
struct FileProviderMetadataCacheTests {
    static func stored(issuer: String = "https://id.example.test/tenant") -> StoredProviderMetadata {
        StoredProviderMetadata(
            metadata: ProviderMetadata(
                issuer: issuer,
                endpoints: ProviderEndpoints(token: URL(string: issuer + "/token"), jwks: URL(string: issuer + "/jwks")),
                grantTypesSupported: ["authorization_code", "refresh_token"], codeChallengeMethodsSupported: ["S256"],
                authorizationResponseIssParameterSupported: true),
            storedAt: Date(timeIntervalSince1970: 1_735_787_045), expiresAt: Date(timeIntervalSince1970: 1_735_873_445))
    }

    @Test("saved metadata reads back as saved, per issuer, in a 0600 file in a 0700 folder; remove forgets it")
    func roundTrip() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let cache = FileProviderMetadataCache(root: folder.url.appendingPathComponent("rider"))
        let tenant = Self.stored()
        let other = Self.stored(issuer: "https://id.example.test/other")
        #expect(await cache.load(issuer: tenant.metadata.issuer) == nil)

        try await cache.save(tenant)
        try await cache.save(other)

        let nextRun = FileProviderMetadataCache(root: folder.url.appendingPathComponent("rider"))
        #expect(await nextRun.load(issuer: tenant.metadata.issuer) == tenant)
        #expect(await nextRun.load(issuer: other.metadata.issuer) == other, "issuers on one host keep apart")
        let file = cache.file(forIssuer: tenant.metadata.issuer)
        #expect(try permissions(of: file) == 0o600)
        #expect(try permissions(of: file.deletingLastPathComponent()) == 0o700)
        try await cache.remove(issuer: tenant.metadata.issuer)
        #expect(await cache.load(issuer: tenant.metadata.issuer) == nil)
        #expect(await cache.load(issuer: other.metadata.issuer) == other)
        try await cache.remove(issuer: tenant.metadata.issuer)
    }

    @Test("a damaged file, a foreign version or another issuer's metadata reads as none")
    func unusableFiles() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let cache = FileProviderMetadataCache(root: folder.url)
        let issuer = "https://id.example.test"
        try await cache.save(Self.stored(issuer: "https://evil.example.test"))
        let evil = try Data(contentsOf: cache.file(forIssuer: "https://evil.example.test"))
        let file = cache.file(forIssuer: issuer)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])

        for contents in [Data("not json".utf8), Data(), Data(#"{"version":2,"stored":{}}"#.utf8), evil] {
            try contents.write(to: file)
            _ = chmod(file.path, 0o600)
            #expect(await cache.load(issuer: issuer) == nil)
        }
    }

    @Test("a file others may write is not trusted")
    func groupWritable() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let cache = FileProviderMetadataCache(root: folder.url)
        let stored = Self.stored()
        try await cache.save(stored)
        _ = chmod(cache.file(forIssuer: stored.metadata.issuer).path, 0o666)

        #expect(await cache.load(issuer: stored.metadata.issuer) == nil)
    }

    @Test("a folder that cannot be written is .storage naming the file")
    func unwritable() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let blocker = folder.url.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let cache = FileProviderMetadataCache(root: blocker)

        let error = await #expect(throws: RiderError.self) { try await cache.save(Self.stored()) }
        #expect(error?.code == .storage)
        #expect(error?.detail?.contains("provider.json") == true)
    }
}

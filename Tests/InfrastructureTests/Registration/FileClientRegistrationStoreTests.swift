import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

@Suite("FileClientRegistrationStore (client-registration.json per issuer in the state folder)")
struct FileClientRegistrationStoreTests {
    static func client(issuer: String = "https://id.example.test/tenant", id: String = "c-1",
                       secret: String? = nil) -> RegisteredClient {
        RegisteredClient(issuer: issuer, clientID: id, clientSecret: secret,
                         issuedAt: Date(timeIntervalSince1970: 1_800_000_000),
                         redirectURIs: ["http://127.0.0.1/callback", "http://[::1]/callback"],
                         tokenEndpointAuthMethod: secret == nil ? "none" : "client_secret_basic",
                         scope: "openid", mayReceiveIDTokens: true, origin: .dynamic)
    }

    @Test("a saved registration reads back in the next process, per issuer, 0600 in a 0700 folder; remove forgets it")
    func roundTrip() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let root = folder.url.appendingPathComponent("rider")
        let store = FileClientRegistrationStore(root: root)
        let tenant = Self.client()
        let other = Self.client(issuer: "https://id.example.test/other", id: "c-2")
        #expect(try await store.load(issuer: tenant.issuer) == nil)

        try await store.save(tenant)
        try await store.save(other)

        let nextProcess = FileClientRegistrationStore(root: root)
        #expect(try await nextProcess.load(issuer: tenant.issuer) == tenant)
        #expect(try await nextProcess.load(issuer: other.issuer) == other, "issuers on one host keep apart")
        let file = store.file(forIssuer: tenant.issuer)
        #expect(file.lastPathComponent == "client-registration.json")
        #expect(try permissions(of: file) == 0o600)
        #expect(try permissions(of: file.deletingLastPathComponent()) == 0o700)
        try await store.remove(issuer: tenant.issuer)
        #expect(try await nextProcess.load(issuer: tenant.issuer) == nil)
        #expect(try await nextProcess.load(issuer: other.issuer) == other)
        try await store.remove(issuer: tenant.issuer)
    }

    @Test("the state folder beside the sessions: $XDG_STATE_HOME/rider")
    func defaultRoot() {
        let directories = XDGDirectories(environment: ["HOME": "/home/ana", "XDG_STATE_HOME": "/state"])
        #expect(FileClientRegistrationStore.defaultRoot(in: directories).path == "/state/rider")
    }

    @Test("a client secret never reaches the file: this instance keeps it, the next one loads the client without it")
    func secretStaysInMemory() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = FileClientRegistrationStore(root: folder.url)
        let confidential = Self.client(secret: "s3cr3t-value")

        try await store.save(confidential)

        let text = try String(decoding: Data(contentsOf: store.file(forIssuer: confidential.issuer)), as: UTF8.self)
        #expect(!text.contains("s3cr3t-value") && text.contains(#""client_secret_issued" : true"#))
        #expect(try await store.load(issuer: confidential.issuer)?.clientSecret == "s3cr3t-value")
        let later = try await FileClientRegistrationStore(root: folder.url).load(issuer: confidential.issuer)
        #expect(later?.clientID == "c-1" && later?.clientSecret == nil && later?.needsSecret == true)
    }

    @Test("a damaged file, a foreign version or another issuer's reads as none; the next save keeps it aside")
    func damagedFiles() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = FileClientRegistrationStore(root: folder.url)
        let issuer = "https://id.example.test"
        try await store.save(Self.client(issuer: "https://evil.example.test"))
        let evil = try Data(contentsOf: store.file(forIssuer: "https://evil.example.test"))
        let file = store.file(forIssuer: issuer)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        for contents in [Data(), Data(#"{"version":2,"issuer":"https://id.example.test"}"#.utf8), evil,
                         Data("not json".utf8)] {
            try contents.write(to: file)
            _ = chmod(file.path, 0o600)
            #expect(try await store.load(issuer: issuer) == nil)
        }

        try await store.save(Self.client(issuer: issuer))

        #expect(try await store.load(issuer: issuer)?.clientID == "c-1")
        let aside = file.appendingPathExtension("damaged")
        #expect(try Data(contentsOf: aside) == Data("not json".utf8), "kept aside, not overwritten unseen")
        #expect(try permissions(of: aside) == 0o600)
    }

    @Test("a file others may read or write is refused as .storage saying what to run, and left as it is")
    func openFileRefused() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = FileClientRegistrationStore(root: folder.url)
        let client = Self.client()
        try await store.save(client)
        let file = store.file(forIssuer: client.issuer)
        _ = chmod(file.path, 0o644)

        let error = await #expect(throws: RiderError.self) { try await store.load(issuer: client.issuer) }

        #expect(error?.code == .storage && error?.detail?.contains("client-registration.json") == true)
        #expect(error?.detail?.contains("chmod") == true)
        #expect(try permissions(of: file) == 0o644, "never repaired")
    }

    @Test("a folder others may change is refused on save, never chmodded")
    func unsafeFolderRefused() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let root = folder.url.appendingPathComponent("rider")
        let store = FileClientRegistrationStore(root: root)
        let client = Self.client()
        let issuerFolder = store.file(forIssuer: client.issuer).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: issuerFolder, withIntermediateDirectories: true)
        _ = chmod(issuerFolder.path, 0o777)

        let error = await #expect(throws: RiderError.self) { try await store.save(client) }

        #expect(error?.code == .storage && error?.detail?.contains("client-registration.json") == true)
        #expect(try permissions(of: issuerFolder) == 0o777, "never repaired")
        #expect(!FileManager.default.fileExists(atPath: store.file(forIssuer: client.issuer).path))
    }
}

import Foundation
import RiderInfrastructure
import Testing

@Suite("XDG directories")
struct XDGDirectoriesTests {
    @Test("XDG variables are used when they are absolute paths")
    func absoluteVariables() {
        let directories = XDGDirectories(environment: [
            "HOME": "/home/ana", "XDG_STATE_HOME": "/var/state", "XDG_CACHE_HOME": "/var/cache",
            "XDG_CONFIG_HOME": "/etc/ana",
        ])
        #expect(directories.stateHome.path == "/var/state")
        #expect(directories.cacheHome.path == "/var/cache")
        #expect(directories.configHome.path == "/etc/ana")
    }

    @Test("missing or relative XDG variables fall back to the defaults under HOME")
    func defaults() {
        let directories = XDGDirectories(environment: ["HOME": "/home/ana", "XDG_STATE_HOME": "relative/state"])
        #expect(directories.stateHome.path == "/home/ana/.local/state")
        #expect(directories.cacheHome.path == "/home/ana/.cache")
        #expect(directories.configHome.path == "/home/ana/.config")
    }

    @Test("a server origin becomes a safe, readable folder name, then 8 hex digits of its hash", arguments: [
        ("https://api.example.com", "https-api.example.com"),
        ("http://127.0.0.1:41234", "http-127.0.0.1-41234"),
        ("https://[::1]:8443", "https-1-8443"),
        ("", "default"),
        ("../../etc", "etc"),
    ])
    func folderNames(origin: String, expected: String) {
        let name = XDGDirectories.folderName(forOrigin: origin)
        #expect(name.hasPrefix(expected + "-"), "\(name)")
        let hash = name.dropFirst(expected.count + 1)
        #expect(hash.count == 8 && hash.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(name)")
    }

    @Test("two origins that read alike never share a folder")
    func noCollision() {
        #expect(XDGDirectories.folderName(forOrigin: "https://a.b:8443")
                    != XDGDirectories.folderName(forOrigin: "https://a.b-8443"))
    }

    @Test("a server's folders move once from their old names without a hash, with what they hold")
    func legacyFoldersMove() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let directories = XDGDirectories(environment: ["HOME": home.path])
        let origin = "http://127.0.0.1:8080"
        let legacy = directories.stateHome.appendingPathComponent("rider/http-127.0.0.1-8080", isDirectory: true)
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: legacy.appendingPathComponent("session.vault"))

        directories.moveLegacyFolders(forOrigin: origin)

        let moved = directories.stateFolder(forOrigin: origin).appendingPathComponent("session.vault")
        #expect(try Data(contentsOf: moved) == Data("old".utf8))
        #expect(!FileManager.default.fileExists(atPath: legacy.path))
        // Once the new folder exists, an old one (written again by an old RiderKit) is left alone.
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        directories.moveLegacyFolders(forOrigin: origin)
        #expect(FileManager.default.fileExists(atPath: legacy.path))
        #expect(try Data(contentsOf: moved) == Data("old".utf8))
    }
}

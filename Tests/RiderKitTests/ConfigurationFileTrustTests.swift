import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RiderKit
import Testing

/// The config file names the servers a session's tokens go to, so one that another user could
/// change is refused, never repaired, as the vault's files are: the file must belong to the user
/// (or root) and let no one else write it, and so must its folder. Real files in a throwaway HOME.
@Suite("RiderKit.Configuration: a config file others could change is refused")
struct ConfigurationFileTrustTests {
    static let runsAsRoot = geteuid() == 0
    /// `nobody`: a second user that root can hand a file to.
    static let otherUser: uid_t = 65534
    static let settings = #"{"base_url": "https://file.example.com"}"#

    /// A throwaway HOME with `~/.config/rider/config.json` holding ``settings``, modes as asked.
    struct Home {
        let url: URL
        var folder: URL { url.appendingPathComponent(".config/rider", isDirectory: true) }
        var file: URL { folder.appendingPathComponent("config.json") }
        var environment: [String: String] { ["HOME": url.path] }

        init(fileMode: mode_t = 0o644, folderMode: mode_t = 0o755, contents: String = settings) throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("riderkit-trust-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url.appendingPathComponent(".config/rider"),
                                                    withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url.appendingPathComponent(".config/rider/config.json"))
            try Self.setMode(fileMode, of: file)
            try Self.setMode(folderMode, of: folder)
        }

        static func setMode(_ mode: mode_t, of url: URL) throws {
            guard chmod(url.path, mode) == 0 else { throw POSIXError(.EPERM) }
        }

        func remove() {
            _ = chmod(folder.path, 0o700)
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// The refusal's message, or `nil` when the configuration loaded.
    private func refusal(_ environment: [String: String]) -> String? {
        do {
            _ = try RiderKit.Configuration.load(environment: environment)
            return nil
        } catch let error as RiderError {
            #expect(error.code == .invalidConfiguration, "\(error)")
            return error.detail ?? error.message
        } catch {
            Issue.record("not a RiderError: \(error)")
            return "\(error)"
        }
    }

    private func mode(of url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test("a file the user owns that no one else may write is read, 0644 in a 0755 folder included")
    func goodFileAccepted() throws {
        let home = try Home()
        defer { home.remove() }
        let configuration = try RiderKit.Configuration.load(environment: home.environment)
        #expect(configuration.api.baseURL.host == "file.example.com")
    }

    @Test("a file its group or everyone may write is refused, naming it and the chmod to run; its mode is kept",
          arguments: [0o664, 0o646, 0o666] as [mode_t])
    func writableFileRefused(mode: mode_t) throws {
        let home = try Home(fileMode: mode)
        defer { home.remove() }
        let message = try #require(refusal(home.environment), "was read")
        #expect(message.contains(home.file.path), "\(message)")
        #expect(message.contains("chmod go-w \(home.file.path)"), "\(message)")
        #expect(try self.mode(of: home.file) == Int(mode), "the file's mode was changed")
    }

    @Test("a folder its group or everyone may write is refused, naming the file and the folder's chmod",
          arguments: [0o775, 0o777] as [mode_t])
    func writableFolderRefused(mode: mode_t) throws {
        let home = try Home(folderMode: mode)
        defer { home.remove() }
        let message = try #require(refusal(home.environment), "was read")
        #expect(message.contains(home.file.path), "\(message)")
        #expect(message.contains("chmod go-w \(home.folder.path)/"), "\(message)")
        #expect(try self.mode(of: home.folder) == Int(mode), "the folder's mode was changed")
    }

    @Test("a shared sticky folder such as /tmp is no place for it: refused, and no chmod of the folder is suggested")
    func stickyFolderRefused() throws {
        let home = try Home(folderMode: 0o1777)
        defer { home.remove() }
        let message = try #require(refusal(home.environment), "was read")
        #expect(message.contains(home.file.path) && message.contains("shared folder"), "\(message)")
        #expect(!message.contains("chmod"), "\(message)")
    }

    @Test("RIDER_CONFIG naming a file others may write is refused the same way")
    func explicitFileRefused() throws {
        let home = try Home()
        defer { home.remove() }
        let elsewhere = home.url.appendingPathComponent("team.json")
        try Data(Self.settings.utf8).write(to: elsewhere)
        try Home.setMode(0o664, of: elsewhere)
        var environment = home.environment
        environment["RIDER_CONFIG"] = elsewhere.path
        let message = try #require(refusal(environment), "was read")
        #expect(message.contains("chmod go-w \(elsewhere.path)"), "\(message)")
        try Home.setMode(0o644, of: elsewhere)
        #expect(refusal(environment) == nil)
    }

    @Test("a file or folder that belongs to another user is refused, with the chown to run",
          .enabled(if: runsAsRoot, "only root can give a file away"), arguments: [false, true])
    func foreignOwnerRefused(folder: Bool) throws {
        let home = try Home()
        defer { home.remove() }
        let given = folder ? home.folder : home.file
        #expect(chown(given.path, Self.otherUser, gid_t(Self.otherUser)) == 0)
        let message = try #require(refusal(home.environment), "was read")
        #expect(message.contains(home.file.path), "\(message)")
        #expect(message.contains("chown root \(given.path)"), "\(message)")
    }

    @Test("a symbolic link in the user's own folder is followed to a file in another checked folder (dotfiles)")
    func ownLinkFollowed() throws {
        let home = try Home()
        defer { home.remove() }
        let dotfiles = home.url.appendingPathComponent("dotfiles", isDirectory: true)
        try FileManager.default.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        let real = dotfiles.appendingPathComponent("rider.json")
        try FileManager.default.moveItem(at: home.file, to: real)
        try FileManager.default.createSymbolicLink(at: home.file, withDestinationURL: real)
        #expect(refusal(home.environment) == nil)

        // The file it points to is held to the same rules as the file itself.
        try Home.setMode(0o777, of: dotfiles)
        let message = try #require(refusal(home.environment), "was read")
        #expect(message.contains("chmod go-w \(dotfiles.path)/"), "\(message)")
    }

    @Test("client_secret in a file other users may read is refused with `chmod 600`; at 0600 it is read")
    func readableSecretRefused() throws {
        let home = try Home(contents: #"{"base_url": "https://file.example.com", "client_secret": "s3cret"}"#)
        defer { home.remove() }
        let message = try #require(refusal(home.environment), "was read")
        #expect(message.contains("chmod 600 \(home.file.path)"), "\(message)")
        #expect(!message.contains("s3cret"))
        try Home.setMode(0o600, of: home.file)
        #expect(try RiderKit.Configuration.load(environment: home.environment).api.clientSecret == "s3cret")
    }
}

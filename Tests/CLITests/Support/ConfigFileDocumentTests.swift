import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import RiderCLI
import RiderKit
import Testing

@Suite("CLI ConfigFileDocument: editing the config file safely")
struct ConfigFileDocumentTests {
    private let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("rider-config-\(UUID().uuidString)", isDirectory: true)
    private var file: URL { folder.appendingPathComponent("rider/config.json") }

    private func permissions(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test("a missing file reads as empty; writing creates the folder 0700 and the file 0600, no temporary file left")
    func createsPrivately() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var document = try ConfigFileDocument(reading: file)
        #expect(!document.exists && document.values.isEmpty)
        document.set(.baseURL, to: "https://api.example.com")
        try document.write()
        #expect(try permissions(file.deletingLastPathComponent()) == 0o700)
        #expect(try permissions(file) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["config.json"])
        #expect(try ConfigFileDocument(reading: file).text(for: .baseURL) == "https://api.example.com")
    }

    @Test("a config file that is a symbolic link stays a link; the file it points to gets the change")
    func keepsSymbolicLink() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let dotfiles = folder.appendingPathComponent("dotfiles", isDirectory: true)
        try FileManager.default.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let real = dotfiles.appendingPathComponent("rider.json")
        try Data("{\"scope\": \"read\"}".utf8).write(to: real)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: real)

        var document = try ConfigFileDocument(reading: file)
        document.set(.timeout, to: "30")
        try document.write()

        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == real.path)
        let written = try ConfigFileDocument(reading: real)
        #expect(written.text(for: .timeout) == "30" && written.text(for: .scope) == "read")
        #expect(try permissions(real) == 0o600)
    }

    @Test("a symbolic link planted in a folder others may write is never followed: reading and writing refuse, the file it names is untouched",
          arguments: [0o777, 0o1777] as [mode_t])
    func plantedLinkRefused(mode: mode_t) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let open = folder.appendingPathComponent("open", isDirectory: true)
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
        #expect(chmod(open.path, mode) == 0)
        let victim = folder.appendingPathComponent("precious.txt")
        try Data("precious\n".utf8).write(to: victim)
        let planted = open.appendingPathComponent("config.json")

        // Read before the link appears (nothing there yet), written after it does.
        var document = try ConfigFileDocument(reading: planted)
        document.set(.timeout, to: "30")
        try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: victim)

        for attempt in [{ try document.write() }, { _ = try ConfigFileDocument(reading: planted) }] {
            let error = try #require(throws: RiderError.self) { try attempt() }
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains(planted.path) && error.message.contains(open.path + "/"), "\(error.message)")
        }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: planted.path) == victim.path)
    }

    @Test("a config file others may write is refused before it is edited, and kept as it was")
    func writableFileRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"timeout": 5}"#.utf8).write(to: file)
        #expect(chmod(file.path, 0o666) == 0)
        let error = try #require(throws: RiderError.self) { try ConfigFileDocument(reading: file) }
        #expect(error.message.contains("chmod go-w \(file.path)"), "\(error.message)")
        #expect(try permissions(file) == 0o666)
        #expect(try String(contentsOf: file, encoding: .utf8) == #"{"timeout": 5}"#)
    }

    @Test("numbers and flags are written as JSON numbers and booleans, and read back as RiderKit reads them")
    func typedValues() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var document = try ConfigFileDocument(reading: file)
        document.set(.timeout, to: "20")
        document.set(.cacheKeepOnLogout, to: "yes")
        document.set(.scope, to: "read write")
        try document.write()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(object["timeout"] as? Int == 20)
        #expect(object["cache_keep_on_logout"] as? Bool == true)
        #expect(object["scope"] as? String == "read write")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("\"timeout\" : 20\n"), "not 20.0")
        #expect(try ConfigFileDocument(reading: file).text(for: .timeout) == "20")
    }

    @Test("keys rider does not know, of any JSON type, survive a set and an unset")
    func keepsUnknownKeys() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"my_note": {"a": [1, true, null, "x"]}, "timeout": 5, "ratio": 1.5}"#.utf8).write(to: file)
        var document = try ConfigFileDocument(reading: file)
        #expect(document.unknownKeys == ["my_note", "ratio"])
        document.set(.vault, to: "memory")
        let removed = document.remove("timeout")
        #expect(removed)
        try document.write()
        let reread = try ConfigFileDocument(reading: file)
        #expect(reread.values["my_note"] == .object(["a": .array([.integer(1), .bool(true), .null, .string("x")])]))
        #expect(reread.values["ratio"] == .number(1.5))
        #expect(reread.text(for: .vault) == "memory")
        #expect(reread.text(for: .timeout) == nil)
    }

    @Test("a file that is not a JSON object is refused with a typed error naming it, and stays byte for byte")
    func refusesUnparseableFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        for content in ["{\"base_url\": \"https://a.example\",", "[1, 2]", "base_url = x"] {
            try Data(content.utf8).write(to: file)
            #expect(throws: ConfigError.unparseableFile(path: file.path)) { try ConfigFileDocument(reading: file) }
            #expect(try String(contentsOf: file, encoding: .utf8) == content)
        }
        let message = ConfigError.unparseableFile(path: file.path).localizedDescription
        #expect(message.contains(file.path) && message.contains("will not overwrite"))
    }

    @Test("an empty file holds nothing to lose, so it reads as an empty document")
    func emptyFileIsEmpty() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(" \n".utf8).write(to: file)
        let document = try ConfigFileDocument(reading: file)
        #expect(document.exists && document.values.isEmpty)
    }

    @Test("the file is $RIDER_CONFIG, else $XDG_CONFIG_HOME/rider/config.json, else ~/.config/rider/config.json")
    func location() {
        #expect(ConfigFileDocument.location(environment: ["RIDER_CONFIG": "/etc/rider.json", "XDG_CONFIG_HOME": "/x"]).path
            == "/etc/rider.json")
        #expect(ConfigFileDocument.location(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/me"]).path
            == "/x/cfg/rider/config.json")
        #expect(ConfigFileDocument.location(environment: ["HOME": "/home/me"]).path == "/home/me/.config/rider/config.json")
    }
}

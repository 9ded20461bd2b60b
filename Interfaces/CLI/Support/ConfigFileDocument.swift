import Foundation
import RiderApplication
import RiderInfrastructure
import RiderKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The config file as `rider config` edits it: every key kept, known or not, and written
/// atomically (a private temporary file renamed over the old one), so an interrupted write never
/// leaves half a file and a file rider cannot parse is never replaced. A file (or folder) someone
/// else could change is refused on read and on write, as RiderKit refuses it when it starts.
struct ConfigFileDocument: Sendable {
    /// Where the file is (it may not exist yet).
    let file: URL
    /// Whether the file existed when read.
    let exists: Bool
    /// Every key in the file, as written there.
    private(set) var values: [String: JSONValue]

    /// Reads `file`; a missing or empty file is an empty document.
    /// - Throws: `RiderError.invalidConfiguration` when it cannot be read or someone else could
    ///   change it (``ConfigurationFile/contents(of:)``), or ``ConfigError/unparseableFile(path:)``
    ///   when it is not a JSON object.
    init(reading file: URL) throws {
        self.file = file
        guard let (data, _) = try ConfigurationFile.contents(of: file) else {
            exists = false
            values = [:]
            return
        }
        exists = true
        // An empty file holds nothing that could be lost.
        if String(decoding: data, as: UTF8.self).allSatisfy(\.isWhitespace) {
            values = [:]
            return
        }
        do {
            values = try JSONDecoder().decode([String: JSONValue].self, from: data)
        } catch {
            throw ConfigError.unparseableFile(path: file.path)
        }
    }

    /// The file RiderKit reads: `$RIDER_CONFIG`, else `$XDG_CONFIG_HOME/rider/config.json`
    /// (`~/.config/rider/config.json` when `XDG_CONFIG_HOME` is unset).
    static func location(environment: [String: String]) -> URL {
        ConfigurationFile.location(environment: environment,
                                   directories: XDGDirectories(environment: environment)).file
    }

    /// The keys in the file that RiderKit does not know (it refuses to start until they go).
    var unknownKeys: [String] {
        values.keys.filter { ConfigKey(rawValue: $0) == nil }.sorted()
    }

    /// The value of `key` as text, or `nil` when the file does not set it.
    func text(for key: ConfigKey) -> String? {
        guard let value = values[key.rawValue], value != .null else { return nil }
        return value.text
    }

    /// Sets `key`, as a number or flag when the setting is one (`"timeout": 20`).
    mutating func set(_ key: ConfigKey, to text: String) {
        switch key.kind {
        case .number:
            values[key.rawValue] = JSONValue(number: text) ?? .string(text)
        case .flag:
            switch text.lowercased() {
            case "true", "yes", "1": values[key.rawValue] = .bool(true)
            case "false", "no", "0": values[key.rawValue] = .bool(false)
            default: values[key.rawValue] = .string(text)
            }
        case .text:
            values[key.rawValue] = .string(text)
        }
    }

    /// Removes `name` (a known key or one RiderKit rejects); `false` when the file did not have it.
    @discardableResult
    mutating func remove(_ name: String) -> Bool {
        values.removeValue(forKey: name) != nil
    }

    /// Writes the document: the folder created private (0700) if missing, the file private
    /// (0600), replaced in one rename.
    /// - Throws: `RiderError.invalidConfiguration` when someone else could change the folder, or
    ///   planted the link (``ConfigurationFile/replacementTarget(for:)``);
    ///   ``ConfigError/cannotWrite(path:reason:)``. The old file is then untouched.
    func write() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(values) + Data("\n".utf8)
        } catch {
            throw ConfigError.cannotWrite(path: file.path, reason: "its settings cannot be written as JSON")
        }
        // A config file that is a symbolic link (dotfile managers keep the real one elsewhere) is
        // replaced where the link points, so the link stays a link — but only a link in a folder
        // no one else may write: one planted there would make this write over any file of ours.
        let target = try ConfigurationFile.replacementTarget(for: file)
        let folder = target.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try Self.writePrivately(data, to: temporary.path)
            guard rename(temporary.path, target.path) == 0 else { throw POSIXFailure(errno: errno) }
        } catch {
            unlink(temporary.path)
            let reason = (error as? POSIXFailure).map { String(cString: strerror($0.errno)) } ?? "\(error)"
            throw ConfigError.cannotWrite(path: file.path, reason: reason)
        }
    }

    private struct POSIXFailure: Error {
        let errno: Int32
    }

    /// Creates `path` with mode 0600 from the start (never readable by others, even briefly),
    /// writes `data` and flushes it to disk before the rename makes it the config file.
    private static func writePrivately(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw POSIXFailure(errno: errno) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw POSIXFailure(errno: errno) }
        try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
        guard fsync(descriptor) == 0 else { throw POSIXFailure(errno: errno) }
    }
}

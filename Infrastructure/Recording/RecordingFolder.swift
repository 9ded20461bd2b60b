import Foundation
import RiderDomain

/// A recording on disk: one folder per request path, one JSON file per exchange, numbered per
/// method in the order they were sent (`DIR/auth/me/GET-0001.json`, `GET-0002.json`, …), and
/// beside them the hidden files only RiderKit reads: `.placeholders.json` (the token
/// placeholders' salted digests), `.replay-position.json` (how far a replay across runs got)
/// and `.lock`.
///
/// Folders are 0700 and files 0600, written atomically, like every file RiderKit keeps from a
/// session. Path segments are percent-encoded and never start with a dot, so no request path
/// can reach outside the folder or onto its hidden files.
struct RecordingFolder: Sendable {
    let root: URL

    private var lockFile: URL { root.appendingPathComponent(".lock") }
    private var placeholdersFile: URL { root.appendingPathComponent(".placeholders.json") }
    /// Where a replay that continues across runs keeps its position.
    var positionFile: URL { root.appendingPathComponent(".replay-position.json") }

    private static let safeCharacters = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `GET-0001.json`.
    static func fileName(method: String, number: Int) -> String {
        "\(escape(method))-\(String(format: "%04d", number)).json"
    }

    /// The number in a recording's file name, or `nil` for any other file.
    static func number(inFileName name: String) -> Int? {
        guard name.hasSuffix(".json"), !name.hasPrefix("."), let dash = name.lastIndex(of: "-") else { return nil }
        return Int(name[name.index(after: dash)...].dropLast(".json".count))
    }

    // MARK: Recording

    /// Writes the exchange `make` builds as the next file of its route, holding the folder's lock
    /// so processes recording into the same folder at once never take the same number, and
    /// keeping the placeholders it hands out.
    /// - Returns: the file written.
    func append(method: String, path: String,
                _ make: (inout TokenPlaceholders) -> RecordedExchange) throws(VaultError) -> URL {
        try FileLock.withLock(lockFile, exclusive: true) { () throws(VaultError) -> URL in
            let stored = try readPlaceholders()
            var placeholders = stored ?? TokenPlaceholders()
            let exchange = make(&placeholders)
            if placeholders.entries != (stored?.entries ?? []) {
                try PrivateFile.write(try encode(placeholders, for: placeholdersFile), to: placeholdersFile)
            }
            let folder = try makeFolder(forPath: path)
            let taken = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let prefix = Self.escape(method) + "-"
            let last = taken.filter { $0.hasPrefix(prefix) }.compactMap(Self.number(inFileName:)).max() ?? 0
            let file = folder.appendingPathComponent(Self.fileName(method: method, number: last + 1))
            try PrivateFile.write(try encode(exchange, for: file), to: file)
            return file
        }
    }

    /// The folder of `path`'s recordings (`root/auth/me` for `/auth/me`, `root` for `/`), made
    /// with every folder on the way 0700.
    private func makeFolder(forPath path: String) throws(VaultError) -> URL {
        var folder = root
        for segment in path.split(separator: "/") {
            folder.appendPathComponent(Self.escape(String(segment)), isDirectory: true)
            try PrivateFile.makeDirectory(folder)
        }
        return folder
    }

    private func readPlaceholders() throws(VaultError) -> TokenPlaceholders? {
        guard let data = try PrivateFile.read(placeholdersFile) else { return nil }
        do {
            return try JSONDecoder().decode(TokenPlaceholders.self, from: data)
        } catch {
            throw .io(file: placeholdersFile.path, reason: "it is not a RiderKit placeholder list; move it aside "
                + "or record into a new folder")
        }
    }

    private func encode(_ value: some Encodable, for file: URL) throws(VaultError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        do {
            return try encoder.encode(value)
        } catch {
            throw .io(file: file.path, reason: "cannot encode it: \(error.localizedDescription)")
        }
    }

    // MARK: Replaying

    /// Every recorded exchange, per route (``ReplaySchedule/route(method:path:)``), each route's
    /// in the order they were recorded.
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` when the folder does not exist or a
    ///   recording in it cannot be read.
    func recordings() throws -> [String: [RecordedExchange]] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw RiderError.invalidConfiguration("the recording folder \(root.path) does not exist")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        var numbered: [String: [(number: Int, exchange: RecordedExchange)]] = [:]
        guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                         options: [.skipsHiddenFiles]) else { return [:] }
        for case let file as URL in files {
            guard let number = Self.number(inFileName: file.lastPathComponent),
                  (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let exchange: RecordedExchange
            do {
                exchange = try decoder.decode(RecordedExchange.self, from: Data(contentsOf: file))
            } catch {
                throw RiderError.invalidConfiguration("the recording \(file.path) cannot be read as a recorded exchange")
            }
            let route = ReplaySchedule.route(method: exchange.request.method, path: exchange.request.path)
            numbered[route, default: []].append((number, exchange))
        }
        return numbered.mapValues { $0.sorted { $0.number < $1.number }.map(\.exchange) }
    }

    /// How many recordings of each route earlier runs replayed; empty when none did.
    func replayPosition() -> [String: Int] {
        guard let data = try? Data(contentsOf: positionFile),
              let position = try? JSONDecoder().decode([String: [String: Int]].self, from: data) else { return [:] }
        return position["served"] ?? [:]
    }

    /// Keeps how many recordings of each route have been replayed, for the next run.
    func saveReplayPosition(_ served: [String: Int]) throws(VaultError) {
        try PrivateFile.write(try encode(["served": served], for: positionFile), to: positionFile)
    }

    private static func escape(_ segment: String) -> String {
        let escaped = segment.addingPercentEncoding(withAllowedCharacters: safeCharacters) ?? segment
        return escaped.hasPrefix(".") ? "%2E" + escaped.dropFirst() : escaped
    }
}

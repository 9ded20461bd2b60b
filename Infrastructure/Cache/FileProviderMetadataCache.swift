import Foundation
import RiderDomain

/// Keeps each provider's metadata in a small JSON file under the user cache's root
/// (`$XDG_CACHE_HOME/rider/<issuer>/provider.json`, the issuer's folder named as a server's is),
/// written atomically with mode 0600.
///
/// A missing, damaged or foreign-version file, or one holding another issuer's metadata, reads as
/// none: it is public data the next start fetches again. So does a file others may read or write,
/// or that is not the user's; a save then replaces it, but only in a folder that passes the same
/// checks as the vault's (``PathSafety``), and otherwise fails saying what to run.
package struct FileProviderMetadataCache: ProviderMetadataCache {
    /// The folder holding one folder per issuer.
    package let root: URL

    /// - Parameter root: the folder holding one folder per issuer (``defaultRoot(in:)`` unless told).
    package init(root: URL) { self.root = root }

    /// `$XDG_CACHE_HOME/rider`, where the user cache keeps its per-server folders.
    /// - Parameter directories: the XDG folders.
    /// - Returns: the root folder.
    package static func defaultRoot(in directories: XDGDirectories) -> URL {
        directories.cacheHome.appendingPathComponent("rider", isDirectory: true)
    }

    /// The file that keeps `issuer`'s metadata.
    /// - Parameter issuer: the issuer identifier.
    /// - Returns: `<root>/<issuer folder>/provider.json`.
    package func file(forIssuer issuer: String) -> URL {
        root.appendingPathComponent(XDGDirectories.folderName(forOrigin: issuer), isDirectory: true)
            .appendingPathComponent("provider.json")
    }

    package func load(issuer: String) async -> StoredProviderMetadata? {
        guard let data = try? PrivateFile.read(file(forIssuer: issuer)),
              let record = try? JSONDecoder.providerRecords.decode(Record.self, from: data),
              record.version == Record.currentVersion, record.stored.metadata.issuer == issuer
        else { return nil }
        return record.stored
    }

    /// - Throws: ``RiderError/storage(_:underlying:)`` naming the file.
    package func save(_ stored: StoredProviderMetadata) async throws {
        let file = file(forIssuer: stored.metadata.issuer)
        do {
            try PrivateFile.write(try JSONEncoder.providerRecords.encode(Record(stored: stored)), to: file)
        } catch VaultError.io(_, let reason) {
            throw RiderError.storage("the provider metadata \(file.path) cannot be written: \(reason)")
        } catch let error as VaultError {
            // A folder others could change is refused, not repaired: the message says what to run.
            throw RiderError.storage("the provider metadata \(file.path) cannot be written: \(error.message)")
        } catch {
            throw RiderError.storage("the provider metadata \(file.path) cannot be written")
        }
    }

    /// - Throws: ``RiderError/storage(_:underlying:)`` naming the file.
    package func remove(issuer: String) async throws {
        let file = file(forIssuer: issuer)
        do {
            try PrivateFile.remove(file)
        } catch {
            throw RiderError.storage("the provider metadata \(file.path) cannot be removed")
        }
    }

    // MARK: - The issuer of a protected resource

    /// The file that keeps the issuer chosen for `resource`: `<root>/<resource folder>/resource.json`.
    package func file(forResource resource: String) -> URL {
        root.appendingPathComponent(XDGDirectories.folderName(forOrigin: resource), isDirectory: true)
            .appendingPathComponent("resource.json")
    }

    /// The kept issuer; a missing, damaged or foreign file, or one for another resource, reads as none.
    package func issuer(ofResource resource: String) async -> String? {
        guard let data = try? PrivateFile.read(file(forResource: resource)),
              let record = try? JSONDecoder.providerRecords.decode(ResourceRecord.self, from: data),
              record.version == ResourceRecord.currentVersion, record.resource == resource else { return nil }
        return record.issuer
    }

    /// - Throws: ``RiderError/storage(_:underlying:)`` naming the file.
    package func saveIssuer(_ issuer: String, ofResource resource: String) async throws {
        let file = file(forResource: resource)
        do {
            let record = ResourceRecord(resource: resource, issuer: issuer)
            try PrivateFile.write(try JSONEncoder.providerRecords.encode(record), to: file)
        } catch let error as VaultError {
            throw RiderError.storage("the protected resource's issuer \(file.path) cannot be written: \(error.message)")
        } catch {
            throw RiderError.storage("the protected resource's issuer \(file.path) cannot be written")
        }
    }

    /// `resource.json`'s layout.
    struct ResourceRecord: Codable {
        static let currentVersion = 1
        var version = Self.currentVersion
        var resource: String
        var issuer: String
    }

    /// The file's layout: a version, then the stored metadata.
    struct Record: Codable {
        /// Bumped when the layout changes; another version is ignored (and fetched again).
        static let currentVersion = 1
        var version = Self.currentVersion
        var stored: StoredProviderMetadata
    }
}

extension JSONEncoder {
    fileprivate static var providerRecords: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension JSONDecoder {
    fileprivate static var providerRecords: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

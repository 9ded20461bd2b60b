import Foundation
import RiderDomain

/// Keeps the sport catalogue in a small JSON file next to the user cache
/// (`$XDG_CACHE_HOME/rider/<server>/sports.json`), written atomically with mode 0600.
///
/// A missing, damaged or foreign-version file reads as no catalogue: it is public data the next
/// request fetches again. So does a file others may read or write, or that is not the user's; a
/// save then replaces it, but only in a folder that passes the same checks as the vault's
/// (``PathSafety``), and otherwise fails saying what to run.
package struct FileSportCatalogueCache: SportCatalogueCache {
    package let file: URL

    package init(file: URL) { self.file = file }

    /// `sports.json` in the server's cache folder.
    package static func defaultFile(forOrigin origin: String, in directories: XDGDirectories) -> URL {
        directories.cacheFolder(forOrigin: origin).appendingPathComponent("sports.json")
    }

    package func load() async -> StoredSportCatalogue? {
        guard let data = try? PrivateFile.read(file) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode(SportCatalogueRecord.self, from: data))?.toDomain()
    }

    /// - Throws: ``RiderError/storage(_:underlying:)`` naming the file.
    package func save(_ catalogue: StoredSportCatalogue) async throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        do {
            try PrivateFile.write(try encoder.encode(SportCatalogueRecord(catalogue)), to: file)
        } catch VaultError.io(_, let reason) {
            throw RiderError.storage("the sport catalogue \(file.path) cannot be written: \(reason)")
        } catch let error as VaultError {
            // A folder others could change is refused, not repaired: the message says what to run.
            throw RiderError.storage("the sport catalogue \(file.path) cannot be written: \(error.message)")
        } catch {
            throw RiderError.storage("the sport catalogue \(file.path) cannot be written")
        }
    }

    /// - Throws: ``RiderError/storage(_:underlying:)`` naming the file.
    package func remove() async throws {
        do {
            try PrivateFile.remove(file)
        } catch {
            throw RiderError.storage("the sport catalogue \(file.path) cannot be removed")
        }
    }
}

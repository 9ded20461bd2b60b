import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The local files as the vault and the user cache would judge them, looked at without opening
/// them for use: no passphrase is asked for, no database is opened, nothing is changed. For a
/// front end that checks the whole machine at once (`rider doctor`).
package enum StorageDiagnosis {
    /// What is in the vault's folder, by the vault's rules (``PathSafety``).
    package struct VaultFolder: Sendable, Equatable {
        /// The folder, or the nearest existing folder above it when it does not exist yet.
        package var examined: String
        /// Whether the folder itself exists (RiderKit makes it 0700 on the first sign-in).
        package var exists: Bool
        /// The folder's permission bits.
        package var mode: Int
        /// The vault files in it (`*.vault`), by name.
        package var files: [String]
    }

    /// Checks the folder that holds (or will hold) the encrypted session files, the folders above
    /// it, and every `*.vault` file in it, as the vault does before it trusts one.
    /// - Parameter folder: the vault's folder.
    /// - Returns: what was found, when all of it would be trusted.
    /// - Throws: the vault's refusal, ``VaultError/permissionsTooOpen(file:mode:)`` or
    ///   ``VaultError/notOwned(file:owner:user:)`` (a folder's path ends in `/`), or
    ///   ``VaultError/io(file:reason:)``.
    package static func vaultFolder(_ folder: URL) throws(VaultError) -> VaultFolder {
        let path = folder.standardizedFileURL.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT else {
                throw .io(file: path, reason: "cannot examine the folder: \(PrivateFile.errnoText())")
            }
            var existing = PathSafety.parent(of: path)
            while stat(existing, &info) != 0, existing != "/" { existing = PathSafety.parent(of: existing) }
            try PathSafety.checkAncestors(from: existing)
            return VaultFolder(examined: existing, exists: false, mode: Int(info.st_mode & 0o7777), files: [])
        }
        try PathSafety.checkFolder(path)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
            .filter { $0.hasSuffix(".vault") }.sorted()
        for name in names {
            let file = path + "/" + name
            var fileInfo = stat()
            guard lstat(file, &fileInfo) == 0 else {
                throw .io(file: file, reason: "cannot examine the file: \(PrivateFile.errnoText())")
            }
            try PathSafety.checkFile(file, fileInfo)
        }
        return VaultFolder(examined: path, exists: true, mode: Int(info.st_mode & 0o7777), files: names)
    }

    /// What a user cache file's first 100 bytes say.
    package enum CacheFile: Sendable, Equatable {
        /// There is no file (it is made on first use).
        case missing
        /// Not an SQLite database, or shorter than its header says: it is moved aside when next opened.
        case notADatabase
        /// A database whose schema is `version` of the `current` this RiderKit writes: older is
        /// migrated when next opened, newer (a later RiderKit's) is moved aside and started afresh.
        case database(version: UInt32, current: UInt32)
    }

    /// Reads the header of the user cache `file`: never SQLite, so it is fast and changes nothing.
    package static func cacheFile(_ file: URL) -> CacheFile {
        guard FileManager.default.fileExists(atPath: file.path) else { return .missing }
        let header = CacheFileHeader.read(file)
        guard header.isPlausible else { return .notADatabase }
        return .database(version: header.userVersion, current: UserCacheSchema.version)
    }
}

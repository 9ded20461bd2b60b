import Foundation
import GRDB
import RiderDomain

/// Failures of the cache file, kept inside the adapter and mapped to ``RiderError/storage(_:underlying:)``
/// at the seam with a message that names the file and what to do.
enum CacheFileError: Error {
    /// SQLite reported an error (the statement's arguments are never kept).
    case database(ResultCode)
    /// The file's schema has migrations this code does not know.
    case newerSchema
    /// `quick_check` found damage.
    case failedIntegrityCheck
    /// A file-system step (create the folder, move a damaged file aside) failed.
    case fileSystem(String)

    /// Whether the file itself is damaged or unusable by this version, so moving it aside and
    /// starting empty is the cure.
    var isDamage: Bool {
        switch self {
        case .database(let code): code == .SQLITE_CORRUPT || code == .SQLITE_NOTADB
        case .newerSchema, .failedIntegrityCheck: true
        case .fileSystem: false
        }
    }

    /// Wraps a GRDB error, keeping only its result code; passes other errors through.
    static func wrap(_ error: any Error) -> any Error {
        if let databaseError = error as? DatabaseError { return CacheFileError.database(databaseError.resultCode) }
        return error
    }

    /// Why the file was replaced, for the warning.
    var damageDescription: String {
        switch self {
        case .database(let code) where code == .SQLITE_NOTADB: "it is not a SQLite database"
        case .database: "SQLite reports it as corrupted"
        case .newerSchema: "it was written by a newer RiderKit whose schema this version does not know"
        case .failedIntegrityCheck: "it failed SQLite's integrity check"
        case .fileSystem(let what): what
        }
    }

    /// The error a caller sees; names the file, never data from it.
    func riderError(file: URL) -> RiderError {
        let path = file.path
        switch self {
        case .database(let code):
            switch code {
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
                return RiderError.storage("the user cache \(path) is read-only; fix its permissions")
                    .suggesting(.cacheInMemory)
            case .SQLITE_CANTOPEN:
                return RiderError.storage("the user cache \(path) cannot be opened; check that its folder exists and "
                    + "is writable").suggesting(.cacheInMemory)
            case .SQLITE_FULL:
                return RiderError.storage("the disk holding the user cache \(path) is full; free some space or clear "
                    + "the cache").suggesting(.clearCache)
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .storage("the user cache \(path) stayed locked by another rider process; try again")
            case .SQLITE_IOERR:
                return .storage("reading or writing the user cache \(path) failed (I/O error); check the disk")
            default:
                return RiderError.storage("the user cache \(path) failed (SQLite error \(code.rawValue)); "
                    + "clearing the cache starts it afresh").suggesting(.clearCache)
            }
        case .newerSchema, .failedIntegrityCheck:
            return .storage("the user cache \(path) is unusable (\(damageDescription)) and could not be replaced")
        case .fileSystem(let what):
            return RiderError.storage(what).suggesting(.cacheInMemory)
        }
    }
}

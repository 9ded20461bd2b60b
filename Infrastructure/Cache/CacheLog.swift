import Foundation
import GRDB
import GRDBSQLite
import CSQLiteLog
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// When closing the cache folds its write-ahead log (`users.sqlite-wal`) back into the file.
///
/// A checkpoint is two `fsync`s: a millisecond, more than opening the cache and reading from it
/// (docs/performance.md, "The cache's hit and close"). A process that only read from the cache
/// has written nothing but its lookups' recency and hit counts: a few pages appended to the log,
/// as durable there as in the file. Such a close leaves them in the log, and the close that
/// finds the log past ``checkpointThreshold``, or that stored or removed users, folds it back.
/// The log is what the database is: SQLite reads a page from the log when the log has it, the
/// full check (`quick_check`) reads the database through it, and a damaged copy of such a page
/// left in the file is never read and is overwritten by the next checkpoint. What a close after
/// stores still checkpoints is what the recovery tests damage: the users themselves.
enum CacheLog {
    /// The log size past which a close checkpoints whatever it wrote: 64 pages of 4 KiB with
    /// their frame headers, a few dozen read-only runs of `rider`. The next process to open the
    /// file reads the whole log once to rebuild its index (SQLite's WAL recovery, ~0.1 ms for
    /// a full one here), so the bound keeps that below the checkpoint it saves.
    static let checkpointThreshold: Int64 = 256 * 1_024

    /// The size of `file`'s log in bytes; 0 when there is none.
    static func size(of file: URL) -> Int64 {
        var info = stat()
        guard stat(file.path + "-wal", &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }

    /// Whether a close may leave the log as it is: it holds pages (an empty log has nothing to
    /// fold back, so SQLite's own close removes it at no cost), fewer than the threshold.
    static func mayStay(_ size: Int64) -> Bool {
        size > 0 && size < checkpointThreshold
    }

    /// Tells SQLite not to checkpoint when this connection, the last on the file, closes
    /// (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`): the log and its index stay for the next process.
    /// - Returns: whether SQLite confirmed it; when not, the caller checkpoints as before.
    static func keepOnClose(_ connection: SQLiteConnection?) -> Bool {
        guard let connection else { return false }
        var confirmed: Int32 = 0
        return rider_sqlite_keep_log_on_close(connection, &confirmed) == SQLITE_OK && confirmed == 1
    }
}

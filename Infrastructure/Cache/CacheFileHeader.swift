import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the 100-byte SQLite header (https://sqlite.org/fileformat.html#the_database_header)
/// says about the cache file, read before SQLite opens it: whether it is a database at all, and
/// the two facts that spare an ordinary open its writes and its look at the migrations.
struct CacheFileHeader: Equatable {
    private static let magic = Array("SQLite format 3\u{0}".utf8)

    /// Whether the file looks like a database: `false` when it has content but no SQLite header,
    /// or is shorter than the page count its header vouches for. A missing or empty file is
    /// plausible (it becomes a new database).
    let isPlausible: Bool
    /// The file is in WAL mode already (read and write versions 2): the mode is persistent, so
    /// opening it need not ask for WAL again, which GRDB follows with a write (a table created
    /// and dropped) whenever the log is empty, as it is after every clean close.
    let isWAL: Bool
    /// `PRAGMA user_version` as last checkpointed into the file: the cache writes its schema
    /// version there (``UserCacheSchema/version``).
    let userVersion: UInt32

    /// Reads the header of `file`; a file that cannot be read is left to SQLite to judge.
    static func read(_ file: URL) -> CacheFileHeader {
        let unknown = CacheFileHeader(isPlausible: true, isWAL: false, userVersion: 0)
        guard let handle = try? FileHandle(forReadingFrom: file) else { return unknown }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return unknown }
        guard (try? handle.seek(toOffset: 0)) != nil,
              let header = try? handle.read(upToCount: 100).map(Array.init), header.count == 100,
              Array(header[0..<16]) == magic else {
            return CacheFileHeader(isPlausible: false, isWAL: false, userVersion: 0)
        }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let changeCounter = bigEndian(header, at: 24)
        let validFor = bigEndian(header, at: 92)
        let pageCount = bigEndian(header, at: 28)
        // The in-header size is only trustworthy when written by the same change as the counter.
        let sizeIsKnown = changeCounter == validFor && pageCount > 0 && pageSize >= 512
        return CacheFileHeader(
            isPlausible: !sizeIsKnown || UInt64(pageCount) * UInt64(pageSize) <= size,
            isWAL: header[18] == 2 && header[19] == 2,
            userVersion: bigEndian(header, at: 60))
    }

    /// Whether the file alone tells the whole story: no write-ahead log with pages beyond it
    /// (absent or empty, as every clean close leaves it). Otherwise the header may be older
    /// than what the log holds, and only SQLite can say.
    static func isCheckpointed(_ file: URL) -> Bool {
        var info = stat()
        return stat(file.path + "-wal", &info) != 0 || info.st_size == 0
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

import Foundation

/// A cheap look at the 100-byte SQLite header (https://sqlite.org/fileformat.html#the_database_header)
/// to catch a file that is not a database or was truncated, before SQLite trips over it.
enum CacheFileHeader {
    private static let magic = Array("SQLite format 3\u{0}".utf8)

    /// `false` when the file has content but no SQLite header, or is shorter than the page count
    /// its header vouches for. A missing or empty file is plausible (it becomes a new database).
    static func isPlausible(_ file: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return true }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return true }
        guard (try? handle.seek(toOffset: 0)) != nil,
              let header = try? handle.read(upToCount: 100).map(Array.init), header.count == 100 else { return false }
        guard Array(header[0..<16]) == magic else { return false }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let changeCounter = bigEndian(header, at: 24)
        let validFor = bigEndian(header, at: 92)
        let pageCount = bigEndian(header, at: 28)
        // The in-header size is only trustworthy when written by the same change as the counter.
        guard changeCounter == validFor, pageCount > 0, pageSize >= 512 else { return true }
        return UInt64(pageCount) * UInt64(pageSize) <= size
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

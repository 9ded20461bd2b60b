import Foundation
import GRDB
@testable import RiderInfrastructure
import RiderDomain
import Testing

/// How SQLite failures reach callers: a `.storage` message naming the file and what to do.
/// (A real read-only file is tested in `SQLiteUserCacheTests` when not running as root; a real
/// full disk is not simulated.)
@Suite("CacheFileError: SQLite failures mapped at the seam")
struct CacheFileErrorTests {
    static let file = URL(fileURLWithPath: "/home/ana/.cache/rider/api/users.sqlite")

    @Test("each failure names the file and says what to do", arguments: [
        (ResultCode.SQLITE_READONLY, "read-only"), (.SQLITE_PERM, "read-only"), (.SQLITE_CANTOPEN, "cannot be opened"),
        (.SQLITE_FULL, "full"), (.SQLITE_BUSY, "locked"), (.SQLITE_IOERR, "I/O error"), (.SQLITE_MISMATCH, "clearing the cache starts it afresh"),
    ])
    func messages(code: ResultCode, phrase: String) {
        guard case let riderError = CacheFileError.database(code).riderError(file: Self.file), riderError.code == .storage, case let message = riderError.detail ?? "" else {
            Issue.record("expected .storage")
            return
        }
        #expect(message.contains(Self.file.path), "\(message)")
        #expect(message.contains(phrase), "\(message)")
        #expect(!message.contains("`rider") && !message.contains("RIDER_"), "no CLI advice in a library message")
        #expect(riderError.remedy != nil || [.SQLITE_BUSY, .SQLITE_IOERR].contains(code), "a remedy for the CLI to name")
    }

    @Test("only a file that is not a database, corrupted, failing its check or too new counts as damage")
    func damage() {
        #expect(CacheFileError.database(.SQLITE_CORRUPT).isDamage)
        #expect(CacheFileError.database(.SQLITE_NOTADB).isDamage)
        #expect(CacheFileError.newerSchema.isDamage && CacheFileError.failedIntegrityCheck.isDamage)
        #expect(!CacheFileError.database(.SQLITE_FULL).isDamage)
        #expect(!CacheFileError.database(.SQLITE_READONLY).isDamage)
        #expect(!CacheFileError.fileSystem("x").isDamage)
    }

    @Test("a GRDB error keeps only its result code: never the SQL arguments")
    func wrapping() {
        let wrapped = CacheFileError.wrap(DatabaseError(resultCode: .SQLITE_FULL, message: "secret-ish detail",
                                                        sql: "INSERT …", arguments: ["ada@example.com"]))
        guard case CacheFileError.database(let code)? = wrapped as? CacheFileError else {
            Issue.record("expected .database")
            return
        }
        #expect(code == .SQLITE_FULL)
        #expect(!String(describing: wrapped).contains("ada@example.com"))
    }
}

import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import RiderDomain

/// The persistent ``UserCache``: a SQLite file (WAL mode, through GRDB) with an FTS5 index for
/// search, least-recently-used eviction, and hit and miss counts.
///
/// Reads do not write: a lookup is one `SELECT`, and the recency and hit counts it changes are
/// kept in memory and written in one transaction with the next batch. Stored answers are written
/// behind, batched: ``store(_:at:)`` returns at once and the users it was given are written with
/// the others that arrive within ``WriteBehind/delay`` (or as soon as ``WriteBehind/batchSize``
/// are waiting), in one transaction. This instance sees them at once (a lookup or a search never
/// misses what was stored); other processes see them once written. ``flush()`` writes them now,
/// ``close()`` too before it lets go of the file; a crash loses at most the batch not yet
/// written — copies of what the server has, nothing else.
///
/// One connection per instance (WAL mode, so other processes' readers and writer do not block
/// each other); inside the process the actor and the connection's queue take turns, so a lookup
/// may wait for this instance's own batch being written (milliseconds).
///
/// Several processes may share the file: writes wait up to
/// ``Configuration/busyTimeout`` for each other instead of failing. The file is opened on first
/// use. A file that is not a database, is damaged, or was written by a newer schema is moved
/// aside (`users.sqlite.corrupt-<timestamp>`) and replaced by an empty one with a warning: the
/// cache only holds copies of what the server has. Holds no tokens or passwords.
public actor SQLiteUserCache: UserCache {
    package nonisolated let configuration: Configuration
    private let logger: Logger?
    private var database: DatabaseQueue?
    private var marker: CacheOpenMarker?
    private var movedAside: [URL] = []
    /// What this instance holds back for the next batch.
    private var pending = PendingWrites()
    /// The batch being written now: still this instance's to answer from until it is committed.
    private var inFlight: [String: UserRecord] = [:]
    private var flushTask: Task<Void, Never>?
    private var checkedAfterUncleanShutdown = false
    /// This instance wrote more than lookups' recency and counts (users, a removal, the schema):
    /// its close folds the log back into the file whatever the log's size (``CacheLog``).
    private var wroteBeyondLookups = false
    /// The lookup by id, prepared once per connection.
    private let lookup = UserLookup()

    /// - Parameters:
    ///   - configuration: the file and its bounds.
    ///   - logger: receives a warning when a damaged file is replaced; `nil` stays silent.
    public init(configuration: Configuration, logger: Logger? = nil) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Where the cache lives, for people.
    package nonisolated var location: String { configuration.file.path }

    /// The damaged files this instance moved aside, oldest first.
    package var recoveredFiles: [URL] { movedAside }

    /// Whether this instance ran the full integrity check on open because the process before it
    /// ended without closing the file.
    package var checkedAfterUncleanShutdownOnOpen: Bool { checkedAfterUncleanShutdown }

    // MARK: UserCache

    public func user(id: UserID) async throws -> Cached<User>? {
        let key = id.rawValue
        var record: UserRecord?
        if let waiting = pending.stores[key]?.record ?? inFlight[key] {
            record = waiting
        } else {
            // The record is handed out through the captured variable, not returned: returned, it
            // would be copied and destroyed through GRDB's and Dispatch's generic layers (value
            // witnesses, a record's eight fields each time).
            try withDatabaseNow { database in
                try Self.readNow(database) { db in record = try lookup.user(id: key, in: db) }
            }
        }
        pending.noteLookup(of: key, found: record != nil)
        scheduleFlush()
        return record?.toCached()
    }

    public func store(_ users: [User], at date: Date) async throws {
        try openForWriting()
        for user in users { pending.store(UserRecord(user, storedAt: date, entityTag: nil)) }
        try await flushIfFull()
    }

    public func store(_ user: User, entityTag: EntityTag?, at date: Date) async throws {
        try openForWriting()
        pending.store(UserRecord(user, storedAt: date, entityTag: entityTag))
        try await flushIfFull()
    }

    public func markRevalidated(id: UserID, at date: Date) async throws {
        if pending.markRevalidated(id.rawValue, at: date) {
            scheduleFlush()
            return
        }
        try await flush()
        wroteBeyondLookups = true
        try await write { db in try UserCacheQueries.markRevalidated(id: id.rawValue, at: date, in: db) }
    }

    public func remove(id: UserID) async throws {
        pending.remove(id.rawValue)
        try await flush()
        wroteBeyondLookups = true
        try await write { db in try UserCacheQueries.remove(id: id.rawValue, in: db) }
    }

    public func search(_ query: String, page: PageRequest) async throws -> UserPage {
        // The index must know what this instance stored: a search never misses it.
        try await flush()
        // A count and a page in one read transaction: another process's write cannot fall between.
        return try await withDatabase { database in
            try database.inDatabase { db in
                var found: UserPage?
                try db.inTransaction(.deferred) {
                    found = try UserCacheQueries.search(query, page: page, in: db)
                    return .commit
                }
                guard let found else { throw RiderError.storage("the user cache \(location) answered no page") }
                return found
            }
        }
    }

    public func statistics() async throws -> UserCacheStatistics {
        try await flush()
        let counts = try await withDatabase { database in try await database.read(UserCacheQueries.counts) }
        return UserCacheStatistics(
            entries: counts.entries, maximumEntries: configuration.maximumEntries, sizeOnDisk: sizeOnDisk(),
            oldestStoredAt: counts.oldest, hits: counts.hits, misses: counts.misses, location: location)
    }

    /// Deletes every entry, then checkpoints and vacuums so the deleted users leave the disk too
    /// (best effort: another process reading at that moment only delays it), and removes the
    /// damaged files earlier recoveries moved aside (`users.sqlite.corrupt-…`), even when
    /// emptying the database itself fails.
    public func removeAll() async throws {
        pending = PendingWrites()
        wroteBeyondLookups = true
        do {
            try await write(UserCacheQueries.removeAll)
        } catch {
            try? removeMovedAsideFiles()
            throw error
        }
        try removeMovedAsideFiles()
        do {
            try await withDatabase { database in
                try await database.writeWithoutTransaction { db in
                    // VACUUM rewrites the file through the log; the second checkpoint puts the
                    // clean pages in the main file and empties the log.
                    try db.checkpoint(.truncate)
                    try db.execute(sql: "VACUUM")
                    try db.checkpoint(.truncate)
                }
            }
        } catch {
            logger?.debug("the emptied user cache \(location) could not be compacted yet; it will shrink later")
        }
    }

    /// Writes what this instance holds back — stored users, and the recency and counts of
    /// lookups — in one transaction, now.
    /// - Throws: ``RiderError/storage(_:underlying:)``; what could not be written is dropped (the
    ///   cache holds copies only), never retried forever.
    public func flush() async throws {
        flushTask?.cancel()
        flushTask = nil
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = PendingWrites()
        let records = batch.orderedRecords
        for record in records { inFlight[record.id] = record }
        defer { for record in records where inFlight[record.id]?.storedAt == record.storedAt { inFlight[record.id] = nil } }
        let maximum = configuration.maximumEntries
        let uses = batch.orderedUses
        let (hits, misses) = (batch.hits, batch.misses)
        if !records.isEmpty { wroteBeyondLookups = true }
        try await write { db in
            // The stores, then the uses (so an entry a lookup used is not the one the new ones
            // push out), then the eviction. Within one batch recency is thus approximate.
            try UserCacheQueries.upsert(records, in: db)
            try UserCacheQueries.recordLookups(used: uses, hits: hits, misses: misses, in: db)
            if !records.isEmpty { try UserCacheQueries.evict(keeping: maximum, in: db) }
        }
    }

    /// Writes what is held back and closes the file; the next call opens it again. Call it when
    /// done with the cache (``RiderKit`` does in its `close()`): the next process to open the
    /// file then knows it was closed cleanly and skips the full integrity check. A close after
    /// stores or removals folds the write-ahead log back into the file (a checkpoint, with its
    /// `fsync`); a close after lookups only leaves their recency and counts in the log until it
    /// grows past ``CacheLog/checkpointThreshold``.
    public func close() async {
        do { try await flush() } catch {
            logger?.debug("the user cache \(location) could not write its last batch on close; it is a cache, nothing is lost")
        }
        if let database {
            let keepsLog = !wroteBeyondLookups && CacheLog.mayStay(CacheLog.size(of: configuration.file))
            closeConnection(database, checkpointing: !keepsLog)
        }
        wroteBeyondLookups = false
        database = nil
        marker?.release()
        marker = nil
    }

    /// Runs SQLite's full integrity check (`PRAGMA quick_check`, every page) now: `rider cache
    /// check`. A damaged file is moved aside and replaced by an empty one, as on open.
    /// - Returns: the damaged file moved aside, or `nil` when the file is sound.
    /// - Throws: ``RiderError/storage(_:underlying:)`` when the file cannot be checked or replaced.
    package func checkIntegrity() async throws -> URL? {
        try await flush()
        let current = try openedDatabase()
        let sound: Bool
        do {
            sound = try await current.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") == "ok" }
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            sound = false
        } catch {
            throw Self.riderError(error, file: configuration.file)
        }
        guard !sound else { return nil }
        let before = movedAside.count
        do {
            try replaceDamagedFile(because: .failedIntegrityCheck)
            _ = try openedDatabase()
        } catch {
            throw Self.riderError(error, file: configuration.file)
        }
        return movedAside.count > before ? movedAside.last : nil
    }

    // MARK: Write-behind

    /// Opens the file before a store is queued, so a folder that cannot be made or a damaged file
    /// is reported to the caller who stored, not later to nobody.
    private func openForWriting() throws {
        do { _ = try openedDatabase() } catch { throw Self.riderError(error, file: configuration.file) }
    }

    private func flushIfFull() async throws {
        if pending.count >= configuration.writeBehind.batchSize || configuration.writeBehind.delay <= .zero {
            try await flush()
        } else {
            scheduleFlush()
        }
    }

    /// Writes the batch after the delay, unless something writes it sooner.
    private func scheduleFlush() {
        guard flushTask == nil, !pending.isEmpty else { return }
        let delay = configuration.writeBehind.delay
        flushTask = Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.flushFromTimer()
        }
    }

    private func flushFromTimer() async {
        flushTask = nil
        do { try await flush() } catch {
            logger?.debug("a batch of the user cache \(location) could not be written; it is a cache, nothing is lost")
        }
    }

    /// A lookup on the calling thread, straight on the connection: one `SELECT` is atomic by
    /// itself, and `read` would add a transaction and switch `query_only` on and off around it,
    /// three statements more than the lookup. The body only reads.
    private nonisolated static func readNow<T>(_ database: DatabaseQueue, _ body: (Database) throws -> T) throws -> T {
        try database.inDatabase(body)
    }

    // MARK: Opening and recovery

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withDatabase { database in try await database.write(body) }
    }

    /// Runs `operation` on the open database; when it reports damage, replaces the file and runs
    /// it once more on the new, empty one.
    private func withDatabase<T: Sendable>(_ operation: (DatabaseQueue) async throws -> T) async throws -> T {
        let current = try openedDatabase()
        do {
            return try await operation(current)
        } catch {
            try replaceIfDamaged(current, after: error)
            do {
                return try await operation(try openedDatabase())
            } catch {
                throw Self.riderError(error, file: configuration.file)
            }
        }
    }

    /// ``withDatabase(_:)`` for an operation that does not suspend: a lookup, without an async
    /// closure's context to allocate on every hit.
    private func withDatabaseNow<T>(_ operation: (DatabaseQueue) throws -> T) throws -> T {
        let current = try openedDatabase()
        do {
            return try operation(current)
        } catch {
            try replaceIfDamaged(current, after: error)
            do {
                return try operation(try openedDatabase())
            } catch {
                throw Self.riderError(error, file: configuration.file)
            }
        }
    }

    /// After `error` from `current`: replaces the file when the error says it is damaged, and
    /// otherwise throws it as the caller's error.
    private func replaceIfDamaged(_ current: DatabaseQueue, after error: any Error) throws {
        let failure = CacheFileError.wrap(error)
        guard let cacheError = failure as? CacheFileError else { throw failure }
        guard cacheError.isDamage else { throw cacheError.riderError(file: configuration.file) }
        // Another call may already have replaced the file while this one was waiting.
        if database === current { try replaceDamagedFile(because: cacheError) }
    }

    private func openedDatabase() throws -> DatabaseQueue {
        if let database { return database }
        do {
            try prepareFolder()
            do {
                database = try openAndMigrate()
            } catch let error as CacheFileError where error.isDamage {
                try replaceDamagedFile(because: error)
                // The new, empty file is made 0600 as the first was, not left to SQLite's 0644.
                try prepareFolder()
                database = try openAndMigrate()
            }
        } catch {
            throw Self.riderError(error, file: configuration.file)
        }
        guard let database else { throw RiderError.storage("the user cache \(location) could not be opened") }
        return database
    }

    private func openAndMigrate() throws -> DatabaseQueue {
        if marker == nil {
            let (acquired, wasUnclean) = CacheOpenMarker.acquire(for: configuration.file)
            marker = acquired
            checkedAfterUncleanShutdown = wasUnclean && configuration.integrityCheck != .none
        }
        let header = CacheFileHeader.read(configuration.file)
        if configuration.integrityCheck != .none, !header.isPlausible {
            throw CacheFileError.failedIntegrityCheck
        }
        var settings = GRDB.Configuration()
        settings.busyMode = .timeout(configuration.busyTimeout)
        settings.label = "rider.user-cache"
        // WAL, so readers in other processes never wait for a writer. A file already in WAL mode
        // stays so; asking again would make GRDB write to it (it creates and drops a table
        // whenever the log is empty, as every clean close leaves it).
        settings.journalMode = header.isWAL ? .default : .wal
        settings.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let database = try openConnection(settings)
        do {
            let migrator = UserCacheSchema.migrator
            // Every page is read only when told, or when the last process to use the file ended
            // without closing it; otherwise damage is found where SQLite reports it.
            let checksIntegrity = configuration.integrityCheck == .full || checkedAfterUncleanShutdown
            if checksIntegrity, try database.read({ try String.fetchOne($0, sql: "PRAGMA quick_check") }) != "ok" {
                throw CacheFileError.failedIntegrityCheck
            }
            // The common open: the header, with no log beyond it, says the schema is this one;
            // with a log (lookups' recency left by a close, ``CacheLog``), SQLite says, through it.
            if header.userVersion == UserCacheSchema.version,
               try CacheFileHeader.isCheckpointed(configuration.file) || Self.userVersion(database) == UserCacheSchema.version {
                return database
            }
            wroteBeyondLookups = true
            // One read answers both questions; an up-to-date file then takes no write lock but
            // the one that records its version. While another process is creating the schema of
            // a new file, the migrations table may appear between looking for it and reading it
            // (SQL logic error): the migrator then settles it under the write lock.
            let state = try? database.read { db in
                (superseded: try migrator.hasBeenSuperseded(db), complete: try migrator.hasCompletedMigrations(db),
                 version: try UInt32.fetchOne(db, sql: "PRAGMA user_version") ?? 0)
            }
            if state?.superseded == true { throw CacheFileError.newerSchema }
            if state?.complete != true {
                try Self.migrate(database, with: migrator)
                if try database.read(migrator.hasBeenSuperseded) { throw CacheFileError.newerSchema }
            }
            if state?.version != UserCacheSchema.version {
                try database.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA user_version = \(UserCacheSchema.version)")
                }
            }
            return database
        } catch {
            // Closed before the caller may move the file aside.
            Self.close(database)
            throw CacheFileError.wrap(error)
        }
    }

    /// Opens the connection: one `DatabaseQueue` (a `DatabasePool` opens a writer and a reader,
    /// each reading the schema — twice the open cost, for concurrent reads the actor serializes
    /// anyway). The first open of a new file switches it to WAL, and SQLite
    /// answers `PRAGMA journal_mode = WAL` with SQLITE_BUSY at once, without waiting for the
    /// busy timeout, while another process is doing the same; so opening is retried with a
    /// short, growing pause until the busy timeout has passed. Once a file is in WAL mode it
    /// stays so, and later opens never meet this.
    private func openConnection(_ settings: GRDB.Configuration) throws -> DatabaseQueue {
        let deadline = Date().addingTimeInterval(configuration.busyTimeout)
        var pause: TimeInterval = 0.002
        while true {
            do {
                return try DatabaseQueue(path: configuration.file.path, configuration: settings)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                // Blocking on purpose: the actor already blocks on SQLite's own busy waits.
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.1)
            } catch {
                throw CacheFileError.wrap(error)
            }
        }
    }

    /// Applies the migrations. Two processes opening a file at once may both try to apply the
    /// same migration (GRDB reads the pending ones before each migration's own transaction); the
    /// loser fails — "table already exists", or, for a migration that can run twice, the unique
    /// identifier in `grdb_migrations` — its transaction is rolled back, and it simply tries
    /// again, seeing what the winner applied, until none is left.
    private static func migrate(_ database: DatabaseQueue, with migrator: DatabaseMigrator) throws {
        var attempts = 0
        while true {
            do {
                try migrator.migrate(database)
                return
            } catch let error as DatabaseError
                        where [.SQLITE_ERROR, .SQLITE_CONSTRAINT].contains(error.resultCode) && attempts < 5 {
                attempts += 1
                // The winner may still be committing: a moment, then look again.
                Thread.sleep(forTimeInterval: 0.002 * Double(attempts))
                if (try? database.read(migrator.hasCompletedMigrations)) == true { return }
            }
        }
    }

    /// Lets go of the lookup's statement (SQLite closes no connection with one prepared), then
    /// closes the connection as ``close(_:checkpointing:)`` says.
    private func closeConnection(_ database: DatabaseQueue, checkpointing: Bool = true) {
        database.inDatabase { _ in lookup.release() }
        Self.close(database, checkpointing: checkpointing)
    }

    /// `PRAGMA user_version` as SQLite reads it, the log included: one statement, no transaction.
    private static func userVersion(_ database: DatabaseQueue) throws -> UInt32 {
        try database.inDatabase { db in try UInt32.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
    }

    /// Closes the connection. `checkpointing`: folds the write-ahead log into the main file
    /// first (its `fsync` is most of such a close, docs/performance.md), and SQLite's own close
    /// then removes the emptied log. Otherwise the log stays as it is for the next process
    /// (``CacheLog``), unless SQLite cannot be told so, in which case it checkpoints after all.
    private static func close(_ database: DatabaseQueue, checkpointing: Bool = true) {
        let keepsLog = !checkpointing && database.inDatabase { db in CacheLog.keepOnClose(db.sqliteConnection) }
        if !keepsLog {
            _ = try? database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        try? database.close()
    }

    private func replaceDamagedFile(because error: CacheFileError) throws {
        if let database { closeConnection(database) }
        database = nil
        let file = configuration.file
        let aside = try CacheFileRecovery.moveAside(file, at: Date())
        if let aside {
            movedAside.append(aside)
            logger?.warning("""
                the user cache \(file.path) was unusable (\(error.damageDescription)); it was moved aside to \
                \(aside.path) and a new, empty cache was started. Nothing is lost: the cache only holds \
                copies of what the server has.
                """)
        }
    }

    /// Creates the folder (0700) and an empty 0600 file when they are missing, so SQLite's files
    /// (which copy the database file's mode) are not readable by others. A folder, file or log
    /// that already exists is checked, never changed: one others could read or change, or that
    /// is not the user's, is refused with the `chmod`/`chown` to run (``PathSafety``), as the
    /// vault does.
    private func prepareFolder() throws {
        let file = configuration.file
        do {
            try PrivateFile.makeDirectory(file.deletingLastPathComponent())
        } catch {
            throw CacheFileError.fileSystem("cannot use the cache folder for \(file.path): \(error.message)")
        }
        // O_EXCL: never truncate a file another process has just created and started to fill.
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            closeDescriptor(descriptor)
        } else if errno != EEXIST {
            throw CacheFileError.fileSystem("cannot create the user cache \(file.path); is the folder writable?")
        }
        for path in [file.path, file.path + "-wal", file.path + "-shm"] {
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            do {
                try PathSafety.checkFile(path, info)
            } catch {
                throw CacheFileError.fileSystem("the user cache was not opened: \(error.message)")
            }
        }
    }

    /// Deletes the damaged files earlier recoveries moved aside (`users.sqlite.corrupt-…` and
    /// their logs): they hold users too, and clearing the cache promises none are left.
    private nonisolated func removeMovedAsideFiles() throws {
        let file = configuration.file
        let folder = file.deletingLastPathComponent()
        let prefix = file.lastPathComponent + CacheFileRecovery.movedAsideMarker
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let path = folder.appendingPathComponent(name).path
            guard unlink(path) == 0 || errno == ENOENT else {
                throw RiderError.storage("the damaged copy of the user cache \(path) cannot be removed "
                    + "(\(String(cString: strerror(errno)))); delete it by hand")
            }
        }
    }

    private nonisolated func sizeOnDisk() -> Int64 {
        [configuration.file.path, configuration.file.path + "-wal"].reduce(Int64(0)) { total, path in
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
            return total + (size ?? 0)
        }
    }

    private static func riderError(_ error: any Error, file: URL) -> any Error {
        if error is RiderError || error is CancellationError { return error }
        if let cacheError = CacheFileError.wrap(error) as? CacheFileError { return cacheError.riderError(file: file) }
        return RiderError.storage("the user cache \(file.path) failed")
    }
}

/// At file scope, where `close` is the C function rather than ``SQLiteUserCache/close()``.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

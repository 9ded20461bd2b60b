import Foundation
import RiderKit

/// The user cache next to the raw sqlite3 C API doing the same work on a file with the same
/// schema, in one run.
struct CacheScenario {
    var users = 100_000
    var searches = 500
    var lookups = 500

    static let smoke = CacheScenario(users: 500, searches: 20, lookups: 20)

    func run() async throws -> ScenarioReport {
        let options = self
        var report = ScenarioReport(
            scenario: "User cache: \(users) users, \(searches) searches, \(lookups) lookups",
            floorDescription: "the same SQL through the raw sqlite3 C API on a file with the same schema")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-cache-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let users = SampleUsers.make(options.users)
        let queries = SampleUsers.queries(options.searches)
        let narrowQueries = SampleUsers.twoWordQueries(options.searches)
        let ids = (0..<options.lookups).map { users[($0 * 7_919) % users.count].id }
        let now = Date()
        var rows: [ReportRow] = []

        // RiderKit: SQLiteUserCache through GRDB.
        let cacheFile = folder.appendingPathComponent("riderkit/users.sqlite")
        let cache = SQLiteUserCache(configuration: .init(file: cacheFile, maximumEntries: options.users))
        _ = try await cache.statistics()  // opens and migrates, outside the timing
        let kitUpsert = try await Measurement.time { try await cache.store(users, at: now) }

        // Floor: a fresh file with the same schema (created by the cache, then closed).
        let rawFile = folder.appendingPathComponent("raw/users.sqlite")
        let schemaOnly = SQLiteUserCache(configuration: .init(file: rawFile))
        _ = try await schemaOnly.statistics()
        await schemaOnly.close()
        let raw = try RawSQLite(path: rawFile.path)
        let rawUpsert = try Measurement.time { try raw.upsert(users, at: now) }
        rows.append(ReportRow(name: "upsert \(options.users) users, one transaction (total)",
                        riderKit: kitUpsert, floor: rawUpsert, unit: "ms"))

        // FTS prefix search, 20 per page: count + page.
        var kitSearch = Measurement(samples: [])
        var rawSearch = Measurement(samples: [])
        for query in queries.prefix(10) {  // warm both
            _ = try await cache.search(query, page: PageRequest(limit: 20))
            _ = try raw.search(query, limit: 20)
        }
        for query in queries {
            kitSearch.samples.append(try await Measurement.time { _ = try await cache.search(query, page: PageRequest(limit: 20)) })
            rawSearch.samples.append(try Measurement.time { _ = try raw.search(query, limit: 20) })
        }
        rows.append(ReportRow(name: "FTS prefix search p50", riderKit: kitSearch.p50, floor: rawSearch.p50, unit: "ms"))
        rows.append(ReportRow(name: "FTS prefix search p99", riderKit: kitSearch.p99, floor: rawSearch.p99, unit: "ms"))
        var kitNarrow = Measurement(samples: [])
        var rawNarrow = Measurement(samples: [])
        for query in narrowQueries {
            kitNarrow.samples.append(try await Measurement.time { _ = try await cache.search(query, page: PageRequest(limit: 20)) })
            rawNarrow.samples.append(try Measurement.time { _ = try raw.search(query, limit: 20) })
        }
        rows.append(ReportRow(name: "FTS two-word prefix search (\"jos gar\") p50", riderKit: kitNarrow.p50, floor: rawNarrow.p50, unit: "ms"))
        rows.append(ReportRow(name: "FTS two-word prefix search (\"jos gar\") p99", riderKit: kitNarrow.p99, floor: rawNarrow.p99, unit: "ms"))

        // Lookups by id: the cache's hit (a read; its recency and the hit count are written with
        // the next batch), the GetUser use case answering a fresh entry from it, and the floors.
        guard let unused = URL(string: "http://127.0.0.1:9") else { throw BenchFailure("bad URL") }
        let rider = RiderKit(api: try APIConfiguration(baseURL: unused), transport: RefusingTransport(),
                             vault: InMemoryTokenVault(), cache: cache, clock: FixedClock(now: now))
        var kitLookup = Measurement(samples: [])
        var useCase = Measurement(samples: [])
        var rawLookup = Measurement(samples: [])
        var rawSelect = Measurement(samples: [])
        var kitWarm = Measurement(samples: [])
        var rawWarm = Measurement(samples: [])
        for id in ids {
            // Each id's first read on each connection, the hit and the bare SELECT alike: SQLite's
            // page cache is per connection, and the floor used to run last, after the raw read +
            // bump had brought that id's pages into its connection (a warm read against a cold one).
            kitLookup.samples.append(try await Measurement.time { _ = try await cache.user(id: id) })
            rawSelect.samples.append(try Measurement.time { try raw.select(id: id.rawValue) })
            useCase.samples.append(try await Measurement.time { _ = try await rider.getUser(id, policy: .cacheFirst) })
            rawLookup.samples.append(try Measurement.time { try raw.lookupLikeTheCache(id: id.rawValue) })
            // Again, each connection now holding the id's pages: RiderKit's own work shows alone.
            kitWarm.samples.append(try await Measurement.time { _ = try await cache.user(id: id) })
            rawWarm.samples.append(try Measurement.time { try raw.select(id: id.rawValue) })
        }
        rows.append(ReportRow(name: "cache hit by id p50 (a read; recency and count batched) vs the same SELECT, each an id's first read on its connection",
                              riderKit: kitLookup.p50, floor: rawSelect.p50, unit: "ms"))
        rows.append(ReportRow(name: "the same, read again (the pages in each connection's cache)", riderKit: kitWarm.p50, floor: rawWarm.p50, unit: "ms"))
        rows.append(ReportRow(name: "cache hit by id p50 vs the raw read + LRU bump + hit count it replaced", riderKit: kitLookup.p50, floor: rawLookup.p50, unit: "ms"))
        rows.append(ReportRow(name: "GetUser (cache-first, fresh) p50 vs plain SELECT", riderKit: useCase.p50, floor: rawSelect.p50, unit: "ms"))

        var matches = 0
        for query in queries { matches += try await cache.search(query, page: PageRequest(limit: 1)).total }
        var narrowMatches = 0
        for query in narrowQueries { narrowMatches += try await cache.search(query, page: PageRequest(limit: 1)).total }

        // Opening an existing file: what every `rider` command that touches the cache pays once
        // (open, first hit, close — the close writes that hit's recency to the log, and folds the
        // log into the file only past its threshold or after stores).
        await cache.close()
        var kitOpen = Measurement(samples: [])
        var rawOpen = Measurement(samples: [])
        var checkedOpen = Measurement(samples: [])
        var openOnly = Measurement(samples: [])
        var closeOnly = Measurement(samples: [])
        var closeAfterStore = Measurement(samples: [])
        for _ in 0..<20 {
            kitOpen.samples.append(try await Measurement.time {
                let reopened = SQLiteUserCache(configuration: .init(file: cacheFile, maximumEntries: options.users))
                _ = try await reopened.user(id: ids[0])
                await reopened.close()
            })
            let reopened = SQLiteUserCache(configuration: .init(file: cacheFile, maximumEntries: options.users))
            openOnly.samples.append(try await Measurement.time { _ = try await reopened.user(id: ids[0]) })
            closeOnly.samples.append(try await Measurement.time { await reopened.close() })
        }
        for _ in 0..<5 {
            let writer = SQLiteUserCache(configuration: .init(file: cacheFile, maximumEntries: options.users))
            try await writer.store([users[0]], at: now)
            closeAfterStore.samples.append(await Measurement.time { await writer.close() })
        }
        for _ in 0..<20 {
            rawOpen.samples.append(try Measurement.time { try RawSQLite.openSelectClose(path: cacheFile.path, id: ids[0].rawValue) })
        }
        for _ in 0..<3 {
            checkedOpen.samples.append(try await Measurement.time {
                let reopened = SQLiteUserCache(configuration: .init(file: cacheFile, maximumEntries: options.users,
                                                                    integrityCheck: .full))
                _ = try await reopened.user(id: ids[0])
                await reopened.close()
            })
        }
        rows.append(ReportRow(name: "open + first hit p50 (default: header check; full check only after an unclean shutdown) vs raw sqlite3 open + SELECT + close",
                              riderKit: openOnly.p50, floor: rawOpen.p50, unit: "ms"))
        rows.append(ReportRow(name: "open + first hit + close p50 (the close writes the hit's recency to the log) vs the same raw",
                              riderKit: kitOpen.p50, floor: rawOpen.p50, unit: "ms"))
        rows.append(ReportRow(name: "the close p50 vs the open + first hit (right)", riderKit: closeOnly.p50, floor: openOnly.p50, unit: "ms"))
        rows.append(ReportRow(name: "the close, slowest of 20 (the one that finds the log past its threshold checkpoints)",
                              riderKit: closeOnly.samples.max() ?? 0, floor: nil, unit: "ms"))
        rows.append(ReportRow(name: "the close after storing one user p50 (writes it, checkpoints)", riderKit: closeAfterStore.p50,
                              floor: nil, unit: "ms"))
        rows.append(ReportRow(name: "the same with the full check (after an unclean shutdown, or `rider cache check`) vs raw",
                              riderKit: checkedOpen.p50, floor: rawOpen.p50, unit: "ms"))

        // How much work each search did: every match is counted; only a page of them is read.
        rows.append(ReportRow(name: "mean matches per one-word prefix search", riderKit: Double(matches / max(1, queries.count)),
                              floor: nil, unit: ""))
        rows.append(ReportRow(name: "mean matches per two-word prefix search", riderKit: Double(narrowMatches / max(1, narrowQueries.count)),
                              floor: nil, unit: ""))
        report.rows = rows
        return report
    }
}

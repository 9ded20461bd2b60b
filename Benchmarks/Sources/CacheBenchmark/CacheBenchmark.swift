import Foundation
import RiderKit

/// `rider-cache-bench [--users N] [--searches N] [--lookups N]`: the user cache next to the raw
/// sqlite3 C API doing the same work on a file with the same schema, in one run. Prints a
/// Markdown table for docs/performance.md.
@main
struct CacheBenchmark {
    static func main() async throws {
        let options = Options(CommandLine.arguments.dropFirst())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-cache-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let users = SampleUsers.make(options.users)
        let queries = SampleUsers.queries(options.searches)
        let narrowQueries = SampleUsers.twoWordQueries(options.searches)
        let ids = (0..<options.lookups).map { users[($0 * 7_919) % users.count].id }
        let now = Date()
        var rows: [ResultRow] = []

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
        rows.append(ResultRow(name: "upsert \(options.users) users, one transaction (total)",
                        kit: kitUpsert, floor: rawUpsert, unit: "ms"))

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
        rows.append(ResultRow(name: "FTS prefix search p50", kit: kitSearch.p50, floor: rawSearch.p50, unit: "ms"))
        rows.append(ResultRow(name: "FTS prefix search p99", kit: kitSearch.p99, floor: rawSearch.p99, unit: "ms"))
        var kitNarrow = Measurement(samples: [])
        var rawNarrow = Measurement(samples: [])
        for query in narrowQueries {
            kitNarrow.samples.append(try await Measurement.time { _ = try await cache.search(query, page: PageRequest(limit: 20)) })
            rawNarrow.samples.append(try Measurement.time { _ = try raw.search(query, limit: 20) })
        }
        rows.append(ResultRow(name: "FTS two-word prefix search (\"jos gar\") p50", kit: kitNarrow.p50, floor: rawNarrow.p50, unit: "ms"))
        rows.append(ResultRow(name: "FTS two-word prefix search (\"jos gar\") p99", kit: kitNarrow.p99, floor: rawNarrow.p99, unit: "ms"))

        // Lookups by id: the cache's hit (read + LRU bump + hit count in one write transaction),
        // the GetUser use case answering a fresh entry from it, and the floors.
        guard let unused = URL(string: "http://127.0.0.1:9") else { return }
        let rider = RiderKit(api: try APIConfiguration(baseURL: unused), transport: RefusingTransport(),
                             vault: InMemoryTokenVault(), cache: cache, clock: FixedClock(now: now))
        var kitLookup = Measurement(samples: [])
        var useCase = Measurement(samples: [])
        var rawLookup = Measurement(samples: [])
        var rawSelect = Measurement(samples: [])
        for id in ids {
            kitLookup.samples.append(try await Measurement.time { _ = try await cache.user(id: id) })
            useCase.samples.append(try await Measurement.time { _ = try await rider.getUser(id, policy: .cacheFirst) })
            rawLookup.samples.append(try Measurement.time { try raw.lookupLikeTheCache(id: id.rawValue) })
            rawSelect.samples.append(try Measurement.time { try raw.select(id: id.rawValue) })
        }
        rows.append(ResultRow(name: "cache hit by id p50 (read + LRU bump + hit count)", kit: kitLookup.p50, floor: rawLookup.p50, unit: "ms"))
        rows.append(ResultRow(name: "GetUser (cache-first, fresh) p50 vs plain SELECT", kit: useCase.p50, floor: rawSelect.p50, unit: "ms"))

        // Opening an existing file: what every `rider` command that touches the cache pays once.
        await cache.close()
        var checkedOpen = Measurement(samples: [])
        var plainOpen = Measurement(samples: [])
        for _ in 0..<5 {
            checkedOpen.samples.append(try await Measurement.time {
                let reopened = SQLiteUserCache(configuration: .init(file: cacheFile, maximumEntries: options.users,
                                                                    integrityCheck: .full))
                _ = try await reopened.user(id: ids[0])
                await reopened.close()
            })
            plainOpen.samples.append(try await Measurement.time {
                let reopened = SQLiteUserCache(configuration: .init(file: cacheFile, maximumEntries: options.users,
                                                                    integrityCheck: .header))
                _ = try await reopened.user(id: ids[0])
                await reopened.close()
            })
        }
        rows.append(ResultRow(name: "open + first hit p50 — RiderKit column: full quick_check; floor column: default header check", kit: checkedOpen.p50,
                        floor: plainOpen.p50, unit: "ms"))

        print(ResultRow.table(rows, options: options))
        var matches = 0
        for query in queries { matches += try await cache.search(query, page: PageRequest(limit: 1)).total }
        var narrowMatches = 0
        for query in narrowQueries { narrowMatches += try await cache.search(query, page: PageRequest(limit: 1)).total }
        print("\nMean matches per search (each ranked by bm25 and counted) of \(options.users) users: "
            + "\(matches / max(1, queries.count)) for one-word prefixes, "
            + "\(narrowMatches / max(1, narrowQueries.count)) for two-word prefixes.")
    }
}

import Foundation
import RiderDomain
import RiderInfrastructure

// Many tasks storing, reading, searching and removing users at once in the SQLite user cache:
// one SQLiteUserCache shared by many tasks (one GRDB connection in WAL mode, taking turns with
// the actor), and a second one on the same file (another connection, as another process has).

private let epoch = Date(timeIntervalSince1970: 1_735_787_045)
private let writerNames = ["alpha", "bravo", "charlie", "delta"]

private func raceUser(_ number: Int, _ displayName: String) -> User {
    User(id: UserID(String(format: "u_%06d", number)), email: "rider\(number)@example.com", displayName: displayName,
         role: .user, riderType: number.isMultiple(of: 2) ? .mentor : .learner, createdAt: epoch)
}

/// What one task did and what went wrong.
private struct Tally: Sendable {
    var lookups = 0
    var guaranteedHits = 0
    var operations = 0
    var problems = Problems()

    mutating func add(_ other: Tally) {
        lookups += other.lookups
        guaranteedHits += other.guaranteedHits
        operations += other.operations
        problems.add(other.problems)
    }
}

func raceSQLiteUserCache() async throws {
    let folder = try ScratchFolder("cache")
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent("cache/users.sqlite")
    let caches = (0..<2).map { _ in
        SQLiteUserCache(configuration: .init(file: file, maximumEntries: 100_000))
    }
    let seeds = (5001...5100).map { raceUser($0, "Seed rider \($0)") }

    // Both caches open the new file, create it and apply the migrations at the same moment.
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await caches[0].store(Array(seeds[..<50]), at: epoch) }
        group.addTask { try await caches[1].store(Array(seeds[50...]), at: epoch) }
        try await group.waitForAll()
    }
    // The seeds are in the file before the race starts: each pool writes its batch now (a remover
    // on the other pool could not remove what is still in this one's batch).
    for cache in caches { try await cache.flush() }

    let (writers, batches, readers, readerRounds) = (8, 20, 6, 30)
    let tally = await withTaskGroup(of: Tally.self) { group in
        for writer in 0..<writers {
            group.addTask {
                var tally = Tally()
                let cache = caches[writer % 2]
                let name = writerNames[writer % writerNames.count]
                for batch in 0..<batches {
                    let base = (writer * batches + batch) * 10
                    let users = (1...10).map { raceUser(base + $0, "Writer \(name) Batch \(batch)") }
                    do {
                        try await cache.store(users, at: epoch)
                        if try await cache.user(id: users[0].id)?.value != users[0] {
                            tally.problems.add("a user just stored was not read back")
                        }
                        tally.lookups += 1
                        tally.guaranteedHits += 1
                        _ = try await cache.search("writer \(name)", page: PageRequest(limit: 5))
                        if batch.isMultiple(of: 5) {
                            try await cache.markRevalidated(id: users[1].id, at: epoch.addingTimeInterval(60))
                            let tag = EntityTag(rawValue: "\"v\(batch)\"")
                            try await cache.store(users[2], entityTag: tag, at: epoch.addingTimeInterval(60))
                        }
                        tally.operations += batch.isMultiple(of: 5) ? 5 : 3
                    } catch {
                        tally.problems.add("writer \(writer) batch \(batch): \(error)")
                    }
                }
                return tally
            }
        }
        for reader in 0..<readers {
            group.addTask {
                var tally = Tally()
                let cache = caches[reader % 2]
                var random = SystemRandomNumberGenerator()
                for round in 0..<readerRounds {
                    do {
                        // Hit or miss depending on how far the writers got; both are counted.
                        _ = try await cache.user(id: raceUser(Int.random(in: 1...(writers * batches * 10),
                                                                         using: &random), "").id)
                        tally.lookups += 1
                        let word = writerNames[Int.random(in: 0..<writerNames.count, using: &random)]
                        let page = try await cache.search(word, page: PageRequest(page: 1 + round % 3, limit: 10))
                        if page.users.contains(where: { !$0.displayName.lowercased().contains(word) }) {
                            tally.problems.add("a search for \(word) found someone else")
                        }
                        _ = try await cache.statistics()
                        tally.operations += 3
                    } catch {
                        tally.problems.add("reader \(reader) round \(round): \(error)")
                    }
                }
                return tally
            }
        }
        // Two removers forget half the seeds, 25 each.
        for remover in 0..<2 {
            group.addTask {
                var tally = Tally()
                for seed in seeds[(remover * 25)..<(remover * 25 + 25)] {
                    do {
                        try await caches[remover].remove(id: seed.id)
                        tally.operations += 1
                    } catch {
                        tally.problems.add("remover \(remover): \(error)")
                    }
                }
                return tally
            }
        }
        var total = Tally()
        for await tally in group { total.add(tally) }
        return total
    }

    await check(tally.problems.isEmpty,
                "SQLite user cache: \(writers) writers, \(readers) readers and 2 removers on two pools of one file "
                    + "(\(tally.operations) operations): no error, reads consistent\(tally.problems.summary)")
    // Each pool writes what it holds back (stores, lookups' recency and counts) in batches; both
    // batches are written before the file is counted.
    for cache in caches { try await cache.flush() }
    let stats = try await caches[0].statistics()
    let expected = writers * batches * 10 + seeds.count - 50
    await check(stats.entries == expected, "SQLite user cache: \(stats.entries) entries, \(expected) expected")
    await check(stats.hits + stats.misses == tally.lookups && stats.hits >= tally.guaranteedHits,
                "SQLite user cache: every lookup counted once (\(stats.hits) hits + \(stats.misses) misses, "
                    + "\(tally.lookups) lookups)")
    let found = try await caches[1].search("writer", page: PageRequest(limit: 1)).total
    await check(found == writers * batches * 10, "SQLite user cache: the index finds every writer's users (\(found))")
    for cache in caches { await cache.close() }
}

/// Concurrent stores into a small cache: eviction runs inside every write and the bound holds.
func raceSQLiteUserCacheEviction() async throws {
    let folder = try ScratchFolder("eviction")
    defer { folder.remove() }
    let maximum = 64
    let cache = SQLiteUserCache(configuration: .init(file: folder.url.appendingPathComponent("users.sqlite"),
                                                     maximumEntries: maximum))
    let (tasks, stores) = (8, 10)
    try await withThrowingTaskGroup(of: Void.self) { group in
        for task in 0..<tasks {
            group.addTask {
                for store in 0..<stores {
                    let base = (task * stores + store) * 10
                    try await cache.store((1...10).map { raceUser(base + $0, "Evicted \(task)") }, at: epoch)
                    _ = try await cache.search("evicted", page: PageRequest(limit: 20))
                }
            }
        }
        try await group.waitForAll()
    }
    let entries = try await cache.statistics().entries
    await check(entries == maximum,
                "SQLite user cache: \(tasks * stores) concurrent stores of 10 into a cache of \(maximum) keep \(entries)")
    await cache.close()
}

import Foundation

/// What ``SQLiteUserCache`` holds back for its next batch: users stored since the last write,
/// and which entries lookups used (their recency) with the hit and miss counts, so that a read
/// never writes and a burst of answers costs one transaction.
struct PendingWrites: Sendable {
    /// Each user's newest record, with the order in which it last arrived.
    private(set) var stores: [String: (record: UserRecord, order: Int)] = [:]
    /// Each entry used (stored again, confirmed, or looked up before ``recentHits`` were
    /// folded in), with the order of its last use.
    private var uses: [String: Int] = [:]
    /// The hits since the last fold, in order, repeats included: appended without hashing, as
    /// a hit is the hot path (docs/performance.md, "The cache's hit and close"). Everything that
    /// takes a place in the order first folds them into ``uses``, so they are always the latest.
    private var recentHits: [String] = []
    /// How many hits are kept unfolded at most, which bounds their memory between batches.
    private static let hitsBeforeFolding = 4_096
    private(set) var hits = 0
    private(set) var misses = 0
    private var sequence = 0

    var isEmpty: Bool { stores.isEmpty && uses.isEmpty && recentHits.isEmpty && hits == 0 && misses == 0 }

    /// How many rows the batch will write, at most (a user hit twice since the last fold counts
    /// twice).
    var count: Int { stores.count + uses.count + recentHits.count }

    /// Queues `record`. A user stored twice before the batch is written keeps the newest fields;
    /// its entity tag survives when the newer record brings none and its fields did not change,
    /// as the upsert decides for a row already in the file.
    mutating func store(_ record: UserRecord) {
        foldHits()
        var record = record
        if record.entityTag == nil, let earlier = stores[record.id]?.record, earlier.hasSameFields(as: record) {
            record.entityTag = earlier.entityTag
        }
        sequence += 1
        if let earlier = stores[record.id] {
            // Inserted where it first arrived (an update keeps a user's place in the index), and
            // made recent as a use would.
            stores[record.id] = (record, earlier.order)
            uses[record.id] = sequence
        } else {
            stores[record.id] = (record, sequence)
        }
    }

    /// Notes a lookup: a hit makes the entry the most recently used.
    mutating func noteLookup(of id: String, found: Bool) {
        if found {
            hits += 1
            recentHits.append(id)
            if recentHits.count >= Self.hitsBeforeFolding { foldHits() }
        } else {
            misses += 1
        }
    }

    /// Gives the hits noted since the last fold their places in the order, in the order they came.
    private mutating func foldHits() {
        for id in recentHits {
            sequence += 1
            uses[id] = sequence
        }
        recentHits.removeAll(keepingCapacity: true)
    }

    /// Restamps a queued user the server confirmed unchanged.
    /// - Returns: whether the user was queued (otherwise the file holds it).
    mutating func markRevalidated(_ id: String, at date: Date) -> Bool {
        guard var queued = stores[id] else { return false }
        foldHits()
        queued.record.storedAt = date.timeIntervalSince1970
        stores[id] = queued
        sequence += 1
        uses[id] = sequence
        return true
    }

    /// Drops a queued user and its use.
    mutating func remove(_ id: String) {
        foldHits()
        stores[id] = nil
        uses[id] = nil
    }

    /// The queued users in the order they arrived, so the last stored is the most recently used.
    var orderedRecords: [UserRecord] {
        stores.values.sorted { $0.order < $1.order }.map(\.record)
    }

    /// The entries used since the batch began (looked up, stored again, confirmed), least recent
    /// first: written after the stores, so they end up the most recently used.
    var orderedUses: [String] {
        // The unfolded hits come after every folded use; of a repeated one, the last counts.
        var latest: [String] = []
        var seen = Set<String>()
        for id in recentHits.reversed() where seen.insert(id).inserted { latest.append(id) }
        let earlier = uses.filter { !seen.contains($0.key) }.sorted { $0.value < $1.value }.map(\.key)
        return earlier + latest.reversed()
    }
}

extension UserRecord {
    /// Whether the server-given fields are the same (the stamp and the tag aside).
    func hasSameFields(as other: UserRecord) -> Bool {
        id == other.id && email == other.email && displayName == other.displayName && role == other.role
            && riderType == other.riderType && createdAt == other.createdAt
    }
}

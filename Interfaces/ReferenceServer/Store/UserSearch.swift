/// The contract's user search over a snapshot of the store.
///
/// Every term of the query must be a prefix of some word of the display name or the email,
/// compared folded. Results come display-name-prefix matches first, then by folded display
/// name, then by id. A linear scan over words folded at seed time: no index to keep in step
/// with registrations and renames, and fast enough for 100,000 users.
struct UserSearch {
    /// Past this many results, sorting everything beats keeping a sorted prefix.
    private static let partialSortLimit = 2_000

    let query: String

    /// One page of matches and the number of all matches.
    /// - Returns: Positions in `users`, in result order, of the matches on `paging`'s page.
    func page(in users: [ReferenceUser], paging: Pagination) -> (positions: [Int], total: Int) {
        let terms = SearchText.terms(of: query)
        guard !terms.isEmpty else { return ([], 0) }
        let phrase = terms.joined(separator: " ")
        // Positions, not users: moving whole records around would cost more than the scan.
        var hits: [Hit] = []
        for (position, user) in users.enumerated() where Self.matches(user, terms: terms) {
            hits.append(Hit(prefixMatch: user.foldedDisplayName.hasPrefix(phrase), position: position))
        }
        let needed = paging.bounds(in: hits.count).upperBound
        let ordered = needed > Self.partialSortLimit
            ? hits.sorted { $0.precedes($1, in: users) }
            : Self.smallest(needed, of: hits, in: users)
        let bounds = paging.bounds(in: hits.count)
        return (ordered[bounds.clamped(to: ordered.indices)].map(\.position), hits.count)
    }

    /// The first `count` hits in result order, without sorting the rest: a first page over
    /// 100,000 matches costs one comparison per match instead of a full sort.
    private static func smallest(_ count: Int, of hits: [Hit], in users: [ReferenceUser]) -> [Hit] {
        var top: [Hit] = []
        top.reserveCapacity(count)
        for hit in hits {
            if top.count == count {
                guard let last = top.last, hit.precedes(last, in: users) else { continue }
                top.removeLast()
            }
            let slot = top.partitioningIndex { !$0.precedes(hit, in: users) }
            top.insert(hit, at: slot)
        }
        return top
    }

    /// Both sides went through the same folding, so a plain prefix test is the contract's
    /// case- and diacritic-insensitive one.
    private static func matches(_ user: ReferenceUser, terms: [String]) -> Bool {
        terms.allSatisfy { term in
            user.searchWords.contains { $0.hasPrefix(term) }
        }
    }

    private struct Hit {
        let prefixMatch: Bool
        let position: Int

        func precedes(_ other: Hit, in users: [ReferenceUser]) -> Bool {
            if prefixMatch != other.prefixMatch { return prefixMatch }
            let name = users[position].foldedDisplayName
            let otherName = users[other.position].foldedDisplayName
            if name != otherName { return name < otherName }
            return users[position].index < users[other.position].index
        }
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, for a predicate that is false
    /// and then true along the array (binary search).
    fileprivate func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

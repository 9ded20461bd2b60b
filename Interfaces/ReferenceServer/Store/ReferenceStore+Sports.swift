extension ReferenceStore {
    /// What ``setSport(userIndex:id:level:)`` did.
    enum SportChange: Sendable, Equatable {
        case added(RiderSportEntry)
        case updated(RiderSportEntry)
        /// The rider already has ``maximumRiderSports`` sports.
        case full
    }

    static let maximumRiderSports = 20

    /// The rider's sports, in the order they were added.
    func sports(userIndex: Int) -> [RiderSportEntry] {
        riderSports[userIndex] ?? []
    }

    /// Adds the sport or changes its level. The id must be in the catalogue.
    func setSport(userIndex: Int, id: String, level: SportLevel) -> SportChange {
        var list = riderSports[userIndex] ?? []
        if let position = list.firstIndex(where: { $0.id == id }) {
            list[position].level = level
            riderSports[userIndex] = list
            return .updated(list[position])
        }
        guard list.count < Self.maximumRiderSports else { return .full }
        let entry = RiderSportEntry(id: id, level: level)
        list.append(entry)
        riderSports[userIndex] = list
        return .added(entry)
    }

    /// Removes the sport. - Returns: `false` when the rider did not have it.
    func removeSport(userIndex: Int, id: String) -> Bool {
        guard var list = riderSports[userIndex], let position = list.firstIndex(where: { $0.id == id }) else {
            return false
        }
        list.remove(at: position)
        riderSports[userIndex] = list
        return true
    }
}

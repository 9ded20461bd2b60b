import Foundation

extension ReferenceStore {
    /// The rider's base location, if set.
    func baseLocation(userIndex: Int) -> StoredBaseLocation? {
        baseLocations[userIndex]
    }

    /// Replaces the rider's base location.
    func setBaseLocation(userIndex: Int, _ input: BaseLocationInput) -> StoredBaseLocation {
        let stored = StoredBaseLocation(latitude: input.latitude, longitude: input.longitude,
                                        placeName: input.placeName, updatedAt: Self.wholeSeconds(now()))
        baseLocations[userIndex] = stored
        return stored
    }
}

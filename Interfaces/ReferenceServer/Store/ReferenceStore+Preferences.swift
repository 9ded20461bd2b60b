extension ReferenceStore {
    /// The rider's preferences, defaults until saved.
    func preferences(userIndex: Int) -> StoredPreferences {
        storedPreferences[userIndex] ?? StoredPreferences()
    }

    /// Replaces the rider's preferences.
    func setPreferences(userIndex: Int, _ value: StoredPreferences) {
        storedPreferences[userIndex] = value
    }
}

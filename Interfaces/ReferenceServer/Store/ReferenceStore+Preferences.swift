extension ReferenceStore {
    /// The rider's preferences, defaults until saved.
    func preferences(userIndex: Int) -> StoredPreferences {
        storedPreferences[userIndex] ?? StoredPreferences()
    }

    /// Replaces the rider's preferences; `visibility.profile` takes effect at once.
    func setPreferences(userIndex: Int, _ value: StoredPreferences) {
        storedPreferences[userIndex] = value
        if value.profileVisibility == StoredPreferences.hiddenProfile {
            hiddenUsers.insert(userIndex)
        } else {
            hiddenUsers.remove(userIndex)
        }
    }
}

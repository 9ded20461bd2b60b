extension ReferenceStore {
    /// Deletes the account: it can no longer log in, every token it holds stops working, it
    /// leaves listings and searches, its id answers `404`, and its email may register again.
    func deleteAccount(userIndex: Int) {
        guard users.indices.contains(userIndex), !deletedUsers.contains(userIndex) else { return }
        deletedUsers.insert(userIndex)
        indexByEmail.removeValue(forKey: users[userIndex].email.lowercased())
        removeTokens { $0.userIndex == userIndex }
        // A device it approved but that has not collected its tokens yet gets none.
        for (deviceCode, authorization) in deviceAuthorizations where authorization.phase == .approved(userIndex: userIndex) {
            forgetDeviceAuthorization(deviceCode)
        }
        riderSports.removeValue(forKey: userIndex)
        baseLocations.removeValue(forKey: userIndex)
        storedPreferences.removeValue(forKey: userIndex)
        hiddenUsers.remove(userIndex)
        avatars.removeValue(forKey: userIndex)
    }
}

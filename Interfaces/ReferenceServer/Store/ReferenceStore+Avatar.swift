import Foundation

extension ReferenceStore {
    /// Stores `upload` as the rider's avatar and points `avatar_url` at it; like a PATCH, it
    /// gives the profile a new version.
    /// - Returns: The updated user.
    func setAvatar(userIndex: Int, _ upload: AvatarUpload) -> ReferenceUser {
        var user = users[userIndex]
        user.version += 1
        user.updatedAt = max(Self.wholeSeconds(now()), user.updatedAt)
        user.avatarURL = "\(origin)/riders/\(user.id)/avatar"
        users[userIndex] = user
        avatars[userIndex] = StoredAvatar(data: upload.data, mediaType: upload.mediaType,
                                          entityTag: "\"avatar-\(user.id)-\(user.version)\"")
        return user
    }

    /// The uploaded avatar of the user with `id`, if both exist and `viewer` may see the user.
    func avatar(userID id: String, visibleTo viewer: Int) -> StoredAvatar? {
        guard let user = user(id: id, visibleTo: viewer) else { return nil }
        return avatars[user.index]
    }

    /// Sets the scheme, host and port `avatar_url`s start with, once the server knows its port.
    func setOrigin(_ origin: String) {
        self.origin = origin
    }
}

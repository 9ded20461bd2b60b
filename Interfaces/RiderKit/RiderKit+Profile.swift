import Foundation
import RiderApplication
import RiderDomain

extension RiderKit {
    /// The signed-in rider's own profile: the profile itself, its avatar, base location and
    /// preferences (`rider.profile`).
    ///
    /// Reads and writes that only forward to one endpoint are methods here; the edits with logic
    /// of their own keep their use cases (`UpdateRider`, `UploadAvatar`, `UpdatePreferences`).
    public struct Profile: Sendable {
        let api: APIClient
        let updateRider: UpdateRider
        let avatarUploader: UploadAvatar
        let preferencesUpdate: UpdatePreferences

        /// - Parameters:
        ///   - api: sends every request, with the session's token.
        ///   - avatarUpload: the limits an avatar is checked against before it is sent.
        package init(api: APIClient, avatarUpload: UploadAvatar.Configuration = UploadAvatar.Configuration()) {
            self.api = api
            updateRider = UpdateRider(api: api)
            avatarUploader = UploadAvatar(api: api, configuration: avatarUpload)
            preferencesUpdate = UpdatePreferences(api: api)
        }

        /// Fetches the signed-in user's rider profile, with the entity tag an edit needs.
        /// - Returns: the profile.
        /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors.
        public func get() async throws -> Rider {
            try await api.send(API.myRider)
        }

        /// Edits the signed-in user's rider profile without ever overwriting a newer version
        /// (`UpdateRider`: the edit is conditional on the profile's entity tag).
        /// - Parameters:
        ///   - patch: the fields to change.
        ///   - base: the entity tag of the profile the edit was made on; `nil` fetches the current
        ///     profile first and edits that.
        /// - Returns: the updated profile with its new entity tag.
        /// - Throws: `RiderError.invalidInput(_:)` for an empty patch or rejected fields,
        ///   `RiderError.conflict(current:)` when the profile changed since `base`,
        ///   `RiderError.notSignedIn`, network errors.
        public func update(_ patch: RiderPatch, basedOn base: EntityTag? = nil) async throws -> Rider {
            try await updateRider(patch, basedOn: base)
        }

        /// The limits ``uploadAvatar(_:filename:progress:)`` checks before sending.
        public var avatarUpload: UploadAvatar.Configuration { avatarUploader.configuration }

        /// Checks an avatar file's size alone, before it is read.
        /// - Parameter byteCount: the file's size.
        /// - Throws: `RiderError.invalidAvatar(_:)` when it is empty or larger than
        ///   ``avatarUpload``'s `maximumByteCount`.
        public func checkAvatarSize(_ byteCount: Int) throws {
            try avatarUploader.checkSize(byteCount)
        }

        /// Makes a JPEG or PNG the signed-in rider's avatar (`UploadAvatar`).
        /// Nothing is sent unless the image passes every check.
        /// - Parameters:
        ///   - data: the image file's content: a JPEG or PNG, recognised by its first bytes.
        ///   - filename: the file's name; only its last component is sent, without quotes or
        ///     control characters.
        ///   - progress: told how much of the upload has been handed to the network, when the
        ///     transport can tell.
        /// - Returns: the updated profile, with the avatar's URL and the profile's new entity tag.
        /// - Throws: `RiderError.invalidAvatar(_:)` for an empty, too large or unsupported image
        ///   (before sending, or when the server says so), `RiderError.invalidInput(_:)` when the
        ///   server rejects it otherwise, `RiderError.notSignedIn`, `RiderError.sessionExpired`,
        ///   network errors.
        public func uploadAvatar(_ data: Data, filename: String,
                                 progress: (@Sendable (UploadProgress) -> Void)? = nil) async throws -> Rider {
            try await avatarUploader(data, filename: filename, progress: progress)
        }

        /// Fetches where the signed-in rider usually starts their rides.
        /// - Returns: the location, or `nil` when the rider has not set one.
        /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors,
        ///   `RiderError.malformedResponse(_:)`.
        public func baseLocation() async throws -> BaseLocation? {
            do {
                return try await api.send(API.myBaseLocation)
            } catch RiderError.Code.notFound {
                return nil
            }
        }

        /// Sets where the signed-in rider usually starts their rides.
        /// - Parameter location: the new location; it replaces the old one, place name included.
        /// - Returns: the location as the server stored it.
        /// - Throws: `RiderError.invalidInput(_:)` when the server rejects a field,
        ///   `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors.
        public func setBaseLocation(_ location: BaseLocation) async throws -> BaseLocation {
            try await api.send(API.setMyBaseLocation(location))
        }

        /// Fetches the signed-in rider's notification and visibility settings.
        /// - Returns: the settings, with the ones this version does not know kept for saving back.
        /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors,
        ///   `RiderError.malformedResponse(_:)`.
        public func preferences() async throws -> Preferences {
            try await api.send(API.myPreferences)
        }

        /// Changes the signed-in rider's preferences without touching the settings this version
        /// of RiderKit does not know (`UpdatePreferences`).
        /// - Parameter change: edits the typed settings.
        /// - Returns: the settings as the server stored them.
        /// - Throws: `RiderError.invalidInput(_:)` when the server rejects a value,
        ///   `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors.
        public func updatePreferences(_ change: @Sendable (inout Preferences) -> Void) async throws -> Preferences {
            try await preferencesUpdate(change)
        }
    }
}

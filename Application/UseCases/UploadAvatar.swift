import Foundation
import RiderDomain

/// Makes a picture the signed-in rider's avatar (`rider.profile.uploadAvatar(_:filename:progress:)`);
/// its ``Configuration`` sets the limits.
///
/// Takes the image's bytes, not a path: reading the file is the caller's I/O (the `rider` CLI
/// reads it, and can refuse a large file before reading it with `checkSize(_:)`). The user
/// cache is left alone: it keeps what other members see of a user, and an avatar is not part
/// of that.
public struct UploadAvatar: Sendable {
    /// Limits checked before anything is sent.
    public struct Configuration: Hashable, Sendable {
        /// The largest image sent; 5 MiB unless told, the reference server's limit too.
        public var maximumByteCount: Int

        /// - Parameter maximumByteCount: the largest image sent; `nil` is 5 MiB.
        public init(maximumByteCount: Int? = nil) {
            self.maximumByteCount = maximumByteCount ?? AvatarImage.defaultMaximumByteCount
        }
    }

    let api: APIClient
    package let configuration: Configuration

    package init(api: APIClient, configuration: Configuration = Configuration()) {
        self.api = api
        self.configuration = configuration
    }

    /// Checks a file's size alone, before it is read.
    /// - Throws: `RiderError.invalidAvatar(_:)` when it is empty or larger than
    ///   ``Configuration/maximumByteCount``.
    package func checkSize(_ byteCount: Int) throws {
        try AvatarImage.checkSize(byteCount, maximumByteCount: configuration.maximumByteCount)
    }

    /// Uploads `data` as the avatar. Nothing is sent unless the image passes every check.
    /// - Parameters:
    ///   - data: the image file's content: a JPEG or PNG, recognised by its first bytes.
    ///   - filename: the file's name; only its last component is sent, without quotes or
    ///     control characters.
    ///   - progress: told how much of the upload has been handed to the network, from the
    ///     transport's threads, when the transport can tell (`AsyncHTTPClientTransport` and
    ///     `URLSessionTransport` can); it starts from zero again if the request is sent again
    ///     after the session was renewed.
    /// - Returns: the updated profile, with the avatar's URL and the profile's new entity tag.
    /// - Throws: `RiderError.invalidAvatar(_:)` for an empty, too large or unsupported image
    ///   (before sending, or when the server says so), `RiderError.invalidInput(_:)` when the
    ///   server rejects it otherwise, `RiderError.notSignedIn`, `RiderError.sessionExpired`,
    ///   network errors.
    package func callAsFunction(_ data: Data, filename: String,
                               progress: (@Sendable (UploadProgress) -> Void)? = nil) async throws -> Rider {
        let image = try AvatarImage(data: data, filename: filename, maximumByteCount: configuration.maximumByteCount)
        guard let progress else { return try await api.send(API.uploadMyAvatar(image)) }
        return try await UploadProgress.$observer.withValue(progress) {
            try await api.send(API.uploadMyAvatar(image))
        }
    }
}

import Foundation
import RiderDomain

extension API {
    /// `POST /riders/me/avatar`: `image` as the `avatar` part of a `multipart/form-data` body,
    /// answered with the updated profile (its `avatar_url` and new `ETag`).
    ///
    /// A POST, so ``RetryPolicy/default(for:)`` never sends it twice on its own; after a `401`
    /// the session engine renews the token and sends it once more, as for every authorized call
    /// (the server refused the first, so nothing was stored twice). A `413` or `415` is
    /// `RiderError.invalidAvatar(_:)`, like the same problem found before sending.
    package static func uploadMyAvatar(_ image: AvatarImage) -> Endpoint<Rider> {
        let form = MultipartFormData(parts: [
            MultipartFormData.Part(name: "avatar", filename: image.filename, contentType: image.format.mediaType,
                                   data: image.data),
        ])
        let byteCount = image.data.count
        return Endpoint(
            method: .post, path: "/riders/me/avatar", body: form.body(), authorization: .bearer,
            decode: decodeRider,
            mapError: { response in
                switch response.status {
                case 413: .invalidAvatar(.tooLarge(byteCount: byteCount, limit: nil))
                case 415: .invalidAvatar(.unsupportedFormat)
                default: ProblemMapping.error(for: response)
                }
            }
        ).requiring("ETag")
    }
}

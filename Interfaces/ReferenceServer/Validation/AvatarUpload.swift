import Foundation

/// The picture of a valid `POST /riders/me/avatar`: one `avatar` part, sent as `image/jpeg` or
/// `image/png`, not empty, within the size limit, and whose first bytes are what its type says.
struct AvatarUpload: Sendable {
    static let mediaTypes = ["image/jpeg", "image/png"]

    let data: Data
    let mediaType: String

    /// - Throws: `400` for a missing, repeated or unknown part, an empty picture or content
    ///   that does not start like its type; `415` for a part type other than JPEG or PNG; `413`
    ///   for a picture over `maximumSize` bytes. Each names the field.
    static func validate(_ form: MultipartForm, maximumSize: Int) throws -> AvatarUpload {
        let unknown = Set(form.parts.compactMap { $0.name == "avatar" ? nil : ($0.name ?? "") })
        guard unknown.isEmpty else {
            throw APIProblem.badRequest(
                detail: "The form may only hold the avatar.",
                errors: unknown.sorted().map { FieldError(field: $0, message: "is not a known field") })
        }
        let avatars = form.parts
        guard avatars.count == 1, let part = avatars.first else {
            throw APIProblem.badRequest(
                detail: "The form must hold exactly one avatar.",
                errors: [FieldError(field: "avatar", message: avatars.isEmpty ? "is required" : "must be sent once")])
        }
        guard let mediaType = part.mediaType, mediaTypes.contains(mediaType) else {
            var problem = APIProblem.unsupportedMediaType(expected: "image/jpeg or image/png")
            problem.errors = [FieldError(field: "avatar",
                                         message: "must be image/jpeg or image/png, not \(part.mediaType ?? "text/plain")")]
            throw problem
        }
        guard part.data.count <= maximumSize else {
            var problem = APIProblem.contentTooLarge(limit: maximumSize)
            problem.errors = [FieldError(field: "avatar", message: "must not exceed \(maximumSize) bytes")]
            throw problem
        }
        guard !part.data.isEmpty else {
            throw APIProblem.badRequest(detail: "The avatar is empty.",
                                        errors: [FieldError(field: "avatar", message: "is empty")])
        }
        guard sniffedMediaType(part.data) == mediaType else {
            throw APIProblem.badRequest(
                detail: "The avatar's content is not what its type says.",
                errors: [FieldError(field: "avatar", message: "is not \(mediaType): its content does not start like one")])
        }
        return AvatarUpload(data: part.data, mediaType: mediaType)
    }

    /// `image/png` or `image/jpeg` from the file signature, else `nil`.
    static func sniffedMediaType(_ data: Data) -> String? {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        return nil
    }
}

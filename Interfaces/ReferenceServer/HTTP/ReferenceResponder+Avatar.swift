import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension ReferenceResponder {
    /// Room for the multipart envelope (delimiters and part headers) around the picture.
    static let multipartAllowance = 16 * 1024

    /// `POST /riders/me/avatar`: a JPEG or PNG as the `avatar` part of `multipart/form-data`.
    ///
    /// Checks run in this order: token (`401`), the body's media type (`415`), its size (`413`),
    /// the multipart grammar (`400`), then the picture: its part type (`415`), size (`413`),
    /// emptiness and first bytes (`400`). Answers with the profile, whose `avatar_url` points
    /// at ``avatar(id:_:)``, and its new `ETag`.
    func uploadAvatar(_ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        guard let contentType = request.headers[.contentType],
              let boundary = MultipartForm.boundary(inContentType: contentType) else {
            throw APIProblem.unsupportedMediaType(expected: "multipart/form-data with a boundary")
        }
        let body = try await body(of: request, limit: maximumAvatarSize + Self.multipartAllowance)
        guard let form = MultipartForm(body, boundary: boundary) else {
            throw APIProblem.badRequest(detail: "The body is not valid multipart/form-data for its boundary.")
        }
        let upload = try AvatarUpload.validate(form, maximumSize: maximumAvatarSize)
        let updated = await store.setAvatar(userIndex: user.index, upload)
        var headers = Self.noStore
        headers[.eTag] = updated.entityTag
        return try Responses.json(RiderBody(updated), headers: headers)
    }

    /// `GET /riders/{id}/avatar`: the uploaded picture with its media type and `ETag`;
    /// `If-None-Match` naming the tag gets `304`. Members only, like `/users/{id}`, hidden like
    /// it for a rider whose profile visibility is `nobody`, and `private, no-cache` for the
    /// same reason.
    func avatar(id: String, _ request: Request) async throws -> Response {
        let viewer = try await authenticate(request)
        guard let avatar = await store.avatar(userID: id, visibleTo: viewer.index) else {
            throw APIProblem.notFound("No user has the id \(id), or they have not uploaded an avatar.")
        }
        var headers: HTTPFields = [.cacheControl: "private, no-cache", .eTag: avatar.entityTag]
        if let condition = request.headers[.ifNoneMatch].flatMap(EntityTagCondition.init(header:)),
           condition.matchesWeakly(avatar.entityTag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = avatar.mediaType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: avatar.data)))
    }
}

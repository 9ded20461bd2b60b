import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `GET /riders/me`: the signed-in user's profile with its `ETag`.
    func riderMe(_ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        return try riderResponse(user)
    }

    /// `PATCH /riders/me`: an RFC 7396 merge patch, optionally conditional on `If-Match`.
    ///
    /// Checks run in this order: token (`401`), `If-Match` syntax and body (`400`, `413`, `415`),
    /// fields (`422`), then the precondition (`412`), which is tested and applied in one step
    /// of the store so that two concurrent patches cannot both win.
    func patchRiderMe(_ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        let precondition = try request.headers[.ifMatch].map { header in
            guard let condition = EntityTagCondition(header: header) else {
                throw APIProblem.badRequest(
                    detail: "If-Match must be * or a list of quoted entity tags.",
                    errors: [FieldError(field: "If-Match", message: "is not a valid entity tag list")]
                )
            }
            return condition
        }
        let patch = try await jsonObject(of: request, mediaTypes: ["application/merge-patch+json", Responses.json])
        let changes = try RiderChanges.validate(patch)
        switch await store.patchRider(userIndex: user.index, precondition: precondition, changes: changes) {
        case .success(let updated):
            return try riderResponse(updated)
        case .failure(let failure):
            throw APIProblem(
                status: .preconditionFailed,
                slug: "precondition-failed",
                title: "Precondition failed",
                detail: "The profile changed since it was read; fetch it again and reapply the change.",
                headers: [.eTag: failure.currentEntityTag]
            )
        }
    }

    private func riderResponse(_ user: ReferenceUser) throws -> Response {
        var headers = Self.noStore
        headers[.eTag] = user.entityTag
        return try Responses.json(RiderBody(user), headers: headers)
    }
}

extension ReferenceResponder {
    /// `DELETE /riders/me`: deletes the account and ends every session it has (`204`).
    func deleteRiderMe(_ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        await store.deleteAccount(userIndex: user.index)
        return Response(status: .noContent, headers: Self.noStore)
    }
}

import Foundation
import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    static let maximumQueryLength = 100

    /// `GET /users`: all users by id, one page at a time, but for riders who hide their
    /// profile from others (``ReferenceStore/isVisible(_:to:)``).
    func listUsers(_ request: Request) async throws -> Response {
        let viewer = try await authenticate(request)
        let paging = try Pagination(query: query(of: request))
        let (users, total) = await store.page(paging, visibleTo: viewer.index)
        return try Responses.json(UserPageBody(users: users, total: total, page: paging), headers: Self.noStore)
    }

    /// `GET /users/search?q=`: see ``UserSearch`` for matching and order; riders who hide
    /// their profile are found only by themselves.
    func searchUsers(_ request: Request) async throws -> Response {
        let viewer = try await authenticate(request)
        let fields = try query(of: request)
        var errors: [FieldError] = []
        let text = fields["q"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if fields["q"] == nil {
            errors.append(FieldError(field: "q", message: "is required"))
        } else if text.isEmpty {
            errors.append(FieldError(field: "q", message: "must not be empty"))
        } else if text.count > Self.maximumQueryLength {
            errors.append(FieldError(field: "q", message: "must be at most \(Self.maximumQueryLength) characters long"))
        }
        let paging: Pagination
        do {
            paging = try Pagination(query: fields)
        } catch {
            errors += error.errors ?? []
            throw APIProblem.badRequest(detail: "The search parameters are invalid.", errors: errors)
        }
        guard errors.isEmpty else {
            throw APIProblem.badRequest(detail: "The search parameters are invalid.", errors: errors)
        }
        // The scan runs on a snapshot, off the store's actor, so searches do not hold up logins.
        let users = await store.snapshot(visibleTo: viewer.index)
        let (positions, total) = UserSearch(query: text).page(in: users, paging: paging)
        return try Responses.json(UserPageBody(users: positions.map { users[$0] }, total: total, page: paging), headers: Self.noStore)
    }

    /// `GET /users/{id}`, with an `ETag`; `If-None-Match` naming the current tag gets
    /// `304 Not Modified` without a body. `private, no-cache`: a client may keep the user but
    /// must revalidate before reusing it. A rider who hides their profile is `404` to others,
    /// the same answer as an id nobody has, so hiding does not reveal that the account exists.
    func user(id: String, _ request: Request) async throws -> Response {
        let viewer = try await authenticate(request)
        guard let user = await store.user(id: id, visibleTo: viewer.index) else {
            throw APIProblem.notFound("No user has the id \(id).")
        }
        let headers: HTTPFields = [.cacheControl: "private, no-cache", .eTag: user.userEntityTag]
        // An unparsable If-None-Match is ignored (RFC 9110 §13.1.2 lets the server do so).
        if let condition = request.headers[.ifNoneMatch].flatMap(EntityTagCondition.init(header:)),
           condition.matchesWeakly(user.userEntityTag) {
            return Response(status: .notModified, headers: headers)
        }
        return try Responses.json(UserBody(user), headers: headers)
    }
}

import Foundation
import OpenAPIRuntime
import RiderAPI
import RiderKit
import RiderKitOpenAPI

/// The rider API through the generated client, with RiderKit's session behind every call: the
/// bearer token, one shared renewal after a 401, retries of what may be retried.
public struct ProfileClient: Sendable {
    public let client: Client

    /// - Parameter rider: the signed-in session (or one that signs in later) and its transport.
    public init(rider: RiderKit) {
        client = Client(serverURL: rider.api.baseURL, transport: RiderKitTransport(rider),
                        middlewares: [RiderSessionMiddleware(rider)])
    }

    /// A profile with the entity tag a change must name.
    public struct TaggedRider: Sendable {
        public let rider: Components.Schemas.Rider
        public let entityTag: String
    }

    /// Why a call did not give what was asked.
    public enum Failure: Error, Equatable {
        /// The profile changed since `entityTag` was read; the server's current tag is given.
        case changedMeanwhile(currentTag: String?)
        /// The server refused the session (a second 401 after a renewal).
        case unauthorized
        /// Any other answer.
        case unexpected(status: Int)
    }

    /// The signed-in user.
    public func me() async throws -> Components.Schemas.User {
        switch try await client.currentUser() {
        case .ok(let ok): return try ok.body.json
        case .unauthorized: throw Failure.unauthorized
        case .default(let status, _): throw Failure.unexpected(status: status)
        }
    }

    /// The signed-in rider's profile and its entity tag.
    public func profile() async throws -> TaggedRider {
        switch try await client.getOwnRider() {
        case .ok(let ok): return TaggedRider(rider: try ok.body.json, entityTag: ok.headers.ETag ?? "")
        case .unauthorized: throw Failure.unauthorized
        case .default(let status, _): throw Failure.unexpected(status: status)
        }
    }

    /// Renames the rider, only if the profile is still the one `entityTag` names (`If-Match`).
    /// - Throws: ``Failure/changedMeanwhile(currentTag:)`` when it is not.
    public func rename(to displayName: String, ifMatch entityTag: String) async throws -> TaggedRider {
        let changes = Components.Schemas.RiderPatch(display_name: displayName)
        switch try await client.patchOwnRider(headers: .init(If_hyphen_Match: entityTag),
                                              body: .application_merge_hyphen_patch_plus_json(changes)) {
        case .ok(let ok): return TaggedRider(rider: try ok.body.json, entityTag: ok.headers.ETag ?? "")
        case .preconditionFailed(let failed): throw Failure.changedMeanwhile(currentTag: failed.headers.ETag)
        case .unauthorized: throw Failure.unauthorized
        case .badRequest: throw Failure.unexpected(status: 400)
        case .contentTooLarge: throw Failure.unexpected(status: 413)
        case .unsupportedMediaType: throw Failure.unexpected(status: 415)
        case .unprocessableContent: throw Failure.unexpected(status: 422)
        case .default(let status, _): throw Failure.unexpected(status: status)
        }
    }

    /// Users whose name or email starts with the words of `query`.
    public func search(_ query: String, limit: Int = 20) async throws -> Components.Schemas.UserPage {
        switch try await client.searchUsers(query: .init(q: query, limit: limit)) {
        case .ok(let ok): return try ok.body.json
        case .unauthorized: throw Failure.unauthorized
        case .badRequest: throw Failure.unexpected(status: 400)
        case .default(let status, _): throw Failure.unexpected(status: status)
        }
    }
}

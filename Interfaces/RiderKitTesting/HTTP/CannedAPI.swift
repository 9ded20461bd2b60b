import Foundation
import RiderApplication
import RiderDomain

/// The answers behind ``StubTransport/successful(api:)``: every route of the API contract with
/// the sample data of ``Fixtures``. Writes are echoed back but not remembered, so a test that
/// needs a particular answer scripts that route.
final class CannedAPI: Sendable {
    private let tokenPath: String
    private let mePath: String
    private let revokePath: String
    private let fullPath: @Sendable (String) -> String
    /// Token grants issued so far, to number the tokens.
    private let grants = LockedState(0)

    /// - Parameter api: where the routes live; the default paths on a bare host when `nil`.
    init(api: APIConfiguration?) {
        fullPath = { path in api.flatMap { try? $0.url(for: path).path } ?? path }
        tokenPath = fullPath(api?.tokenPath ?? "/auth/token")
        mePath = fullPath(api?.mePath ?? "/auth/me")
        revokePath = fullPath(api?.revokePath ?? "/auth/revoke")
    }

    /// The answer to `request`, or `nil` for a route the contract does not have.
    func reply(to request: HTTPRequest) -> StubReply? {
        let path = request.url.path
        switch request.method {
        case .post where path == tokenPath: return tokenGrant()
        case .post where path == revokePath: return .successful()
        case .get where path == mePath: return .successful(Fixtures.user())
        case .post where path == fullPath("/auth/register"): return .successful(Fixtures.registered(), status: 201)
        case .get where path == fullPath("/users"): return page(of: Fixtures.sampleUsers, request: request)
        case .get where path == fullPath("/users/search"):
            let query = request.queryFields["q"] ?? ""
            return page(of: Fixtures.sampleUsers.filter { Self.user($0, matches: query) }, request: request)
        case .get where path.hasPrefix(fullPath("/users") + "/"):
            let id = String(path.dropFirst(fullPath("/users").count + 1))
            return Fixtures.sampleUsers.first { $0["id"] == .string(id) }.map { .successful($0) }
                ?? .problem(status: 404, detail: "No user has the id \(id).")
        case .get where path == fullPath("/riders/me"): return .successful(Fixtures.rider(), headers: ["ETag": "\"v1\""])
        case .patch where path == fullPath("/riders/me"):
            return .successful(Self.merging(request.body, into: Fixtures.rider()), headers: ["ETag": "\"v2\""])
        case .delete where path == fullPath("/riders/me"): return .status(204)
        default: return profileReply(to: request, path: path)
        }
    }

    /// Sports, base location and preferences.
    private func profileReply(to request: HTTPRequest, path: String) -> StubReply? {
        let mySports = fullPath("/riders/me/sports")
        switch request.method {
        case .get where path == fullPath("/sports"):
            return .successful(Fixtures.sports(), headers: ["Cache-Control": "public, max-age=86400"])
        case .get where path == mySports: return .successful(Fixtures.riderSports())
        case .post where path.hasPrefix(mySports + "/"):
            let id = String(path.dropFirst(mySports.count + 1))
            guard Fixtures.sportCatalogue.contains(where: { $0.id == id }) else {
                return .problem(status: 404, detail: "The catalogue has no sport \(id).")
            }
            let level = FixtureJSON(data: request.body ?? Data())?["level"] ?? "beginner"
            return .successful(Fixtures.riderSport(id: id).setting("level", to: level), status: 201)
        case .delete where path.hasPrefix(mySports + "/"): return .status(204)
        case .get where path == fullPath("/riders/me/base-location"): return .successful(Fixtures.baseLocation())
        case .put where path == fullPath("/riders/me/base-location"):
            let sent = FixtureJSON(data: request.body ?? Data()) ?? Fixtures.baseLocation()
            return .successful(sent.setting("updated_at", to: .string(Fixtures.epochText)))
        case .get where path == fullPath("/riders/me/preferences"): return .successful(Fixtures.preferences())
        case .put where path == fullPath("/riders/me/preferences"):
            return .successful(FixtureJSON(data: request.body ?? Data()) ?? Fixtures.preferences())
        default: return nil
        }
    }

    /// A new pair of tokens for any grant: `stub-access-1`/`stub-refresh-1`, then `-2`, and so on.
    private func tokenGrant() -> StubReply {
        let number = grants.withLock { count -> Int in
            count += 1
            return count
        }
        return .successful(Fixtures.tokenResponse(accessToken: "stub-access-\(number)", refreshToken: "stub-refresh-\(number)"),
                           headers: ["Cache-Control": "no-store"])
    }

    private func page(of users: [FixtureJSON], request: HTTPRequest) -> StubReply {
        let limit = max(1, request.queryFields["limit"].flatMap { Int($0) } ?? 20)
        let page = max(1, request.queryFields["page"].flatMap { Int($0) } ?? 1)
        let shown = Array(users.dropFirst((page - 1) * limit).prefix(limit))
        return .successful(Fixtures.userPage(users: shown, total: users.count, page: page, limit: limit,
                                             hasNext: page * limit < users.count))
    }

    /// Whether the display name or email contains `query`, ignoring case and accents, as the server searches.
    private static func user(_ user: FixtureJSON, matches query: String) -> Bool {
        guard !query.isEmpty else { return true }
        return ["display_name", "email"].contains { key in
            guard case .string(let text)? = user[key] else { return false }
            return text.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
    }

    /// A JSON merge patch (RFC 7396) applied to one level of `document`; `null` clears a member.
    private static func merging(_ body: Data?, into document: FixtureJSON) -> FixtureJSON {
        guard case .object(let members)? = body.flatMap(FixtureJSON.init(data:)) else { return document }
        return members.reduce(document) { $0.setting($1.key, to: $1.value) }
    }
}

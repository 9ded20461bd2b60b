import Foundation
import HTTPTypes

/// The contract's routes, matched on method and path.
enum Route: Sendable, Equatable {
    case token
    case register
    case revoke
    case authMe
    case riderMe
    case patchRiderMe
    case deleteRiderMe
    case uploadAvatar
    case avatar(id: String)
    case listUsers
    case searchUsers
    case user(id: String)
    case sports
    case baseLocation
    case putBaseLocation
    case preferences
    case putPreferences
    case mySports
    case setMySport(id: String)
    case removeMySport(id: String)
    case standardToken
    case deviceAuthorization
    case pushedAuthorization
    case clientRegistration
    case devicePage
    case deviceDecision
    case authorizationPage
    case authorizationDecision
    case keySet
    case userinfo
    case openIDConfiguration
    case authorizationServerMetadata
    case protectedResourceMetadata
    case adminResourceMetadata
    case adminStats
    case testStats
    case testRedirect
    case testEchoHeaders
    case testExpireAccessTokens
    case testRotateSigningKey
    case testSpoilNextIDToken

    /// The outcome of matching a request line.
    enum Match: Sendable, Equatable {
        case found(Route)
        /// The path exists but not with this method; carries the `Allow` list.
        case methodNotAllowed([HTTPRequest.Method])
        case notFound
    }

    /// Finds the route for `method` and `path`. `HEAD` is served wherever `GET` is.
    /// - Parameter testHooks: Whether `/_test/*` exists; without it those paths are unknown.
    static func match(method: HTTPRequest.Method, path: String, testHooks: Bool) -> Match {
        guard let routes = routes(forPath: path),
              testHooks || !routes.contains(where: { $0.route.isTestHook }) else { return .notFound }
        let effective = method == .head ? .get : method
        if let route = routes.first(where: { $0.method == effective }) {
            return .found(route.route)
        }
        let allowed = routes.map(\.method)
        return .methodNotAllowed(allowed.contains(.get) ? allowed + [.head] : allowed)
    }

    /// Served only with ``ReferenceServerConfiguration/enableTestHooks``.
    var isTestHook: Bool {
        switch self {
        case .testStats, .testRedirect, .testEchoHeaders, .testExpireAccessTokens, .testRotateSigningKey,
             .testSpoilNextIDToken: true
        default: false
        }
    }

    private static func routes(forPath path: String) -> [(method: HTTPRequest.Method, route: Route)]? {
        switch path {
        case "/auth/token": return [(.post, .token)]
        case "/auth/register": return [(.post, .register)]
        case "/auth/revoke": return [(.post, .revoke)]
        case "/auth/me": return [(.get, .authMe)]
        case "/riders/me": return [(.get, .riderMe), (.patch, .patchRiderMe), (.delete, .deleteRiderMe)]
        case "/users": return [(.get, .listUsers)]
        case "/users/search": return [(.get, .searchUsers)]
        case "/sports": return [(.get, .sports)]
        case "/riders/me/sports": return [(.get, .mySports)]
        case "/riders/me/base-location": return [(.get, .baseLocation), (.put, .putBaseLocation)]
        case "/riders/me/preferences": return [(.get, .preferences), (.put, .putPreferences)]
        case "/riders/me/avatar": return [(.post, .uploadAvatar)]
        case "/oauth2/token": return [(.post, .standardToken)]
        case "/oauth2/device_authorization": return [(.post, .deviceAuthorization)]
        case "/oauth2/par": return [(.post, .pushedAuthorization)]
        case "/oauth2/register": return [(.post, .clientRegistration)]
        case "/device": return [(.get, .devicePage), (.post, .deviceDecision)]
        case "/oauth2/authorize": return [(.get, .authorizationPage), (.post, .authorizationDecision)]
        case "/jwks.json": return [(.get, .keySet)]
        case "/userinfo": return [(.get, .userinfo)]
        case "/.well-known/openid-configuration": return [(.get, .openIDConfiguration)]
        case "/.well-known/oauth-authorization-server": return [(.get, .authorizationServerMetadata)]
        case "/.well-known/oauth-protected-resource": return [(.get, .protectedResourceMetadata)]
        case "/.well-known/oauth-protected-resource/admin": return [(.get, .adminResourceMetadata)]
        case "/admin/stats": return [(.get, .adminStats)]
        case "/_test/stats": return [(.get, .testStats)]
        case "/_test/redirect": return [(.get, .testRedirect), (.post, .testRedirect)]
        case "/_test/echo-headers": return [(.get, .testEchoHeaders), (.post, .testEchoHeaders)]
        case "/_test/expire-access-tokens": return [(.post, .testExpireAccessTokens)]
        case "/_test/rotate-signing-key": return [(.post, .testRotateSigningKey)]
        case "/_test/spoil-next-id-token": return [(.post, .testSpoilNextIDToken)]
        default: break
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if segments.count == 5, segments[0].isEmpty, segments[1] == "riders", segments[2] == "me",
           segments[3] == "sports", !segments[4].isEmpty, let id = segments[4].removingPercentEncoding {
            return [(.post, .setMySport(id: id)), (.delete, .removeMySport(id: id))]
        }
        if segments.count == 4, segments[0].isEmpty, segments[1] == "riders", !segments[2].isEmpty,
           segments[3] == "avatar", let id = segments[2].removingPercentEncoding {
            return [(.get, .avatar(id: id))]
        }
        guard segments.count == 3, segments[0].isEmpty, segments[1] == "users", !segments[2].isEmpty,
            let id = segments[2].removingPercentEncoding
        else { return nil }
        return [(.get, .user(id: id))]
    }
}

import Foundation
import RiderDomain

/// An in-memory API that rotates refresh tokens the way the reference server does: each refresh
/// token works once, and only the newest access token is accepted.
actor FakeServer: HTTPTransport {
    private(set) var refreshGrants = 0
    private var accessToken: String
    private var refreshToken: String
    /// Widens the windows in which races could happen.
    private let latency: Duration

    init(accessToken: String, refreshToken: String, latency: Duration = .microseconds(200)) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.latency = latency
    }

    /// Makes every access token issued so far invalid, as if they had expired on the server.
    func expireAccessTokens() { accessToken = "expired-\(UUID().uuidString)" }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await Task.sleep(for: latency)
        switch (request.method, request.url.path) {
        case (.post, "/auth/token"):
            return grant(request)
        case (.get, "/riders/me"):
            guard request.headers["Authorization"] == "Bearer \(accessToken)" else {
                return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
            }
            return json(200, [
                "user_id": "u_000001", "display_name": "Race", "rider_type": "learner", "description": NSNull(),
                "avatar_url": NSNull(), "sports": [String](), "updated_at": "2026-01-01T00:00:00Z",
            ], headers: ["ETag": "\"v1\""])
        default:
            return HTTPResponse(status: 404)
        }
    }

    private func grant(_ request: HTTPRequest) -> HTTPResponse {
        let form = String(decoding: request.body ?? Data(), as: UTF8.self)
        let fields = Dictionary(form.split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }, uniquingKeysWith: { $1 })
        guard fields["grant_type"] == "refresh_token", fields["refresh_token"] == refreshToken else {
            return json(400, ["error": "invalid_grant"])
        }
        refreshGrants += 1
        accessToken = "access-\(refreshGrants)"
        refreshToken = "refresh-\(refreshGrants)"
        return json(200, ["access_token": accessToken, "token_type": "Bearer", "expires_in": 3600,
                          "refresh_token": refreshToken, "user_id": "u_000001"])
    }

    private func json(_ status: Int, _ object: [String: Any], headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers.add("Content-Type", "application/json")
        let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return HTTPResponse(status: status, headers: headers, body: body)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RiderReferenceServer
import TestSupport

/// A reference server on an ephemeral loopback port plus a URLSession to talk to it.
struct TestServer: Sendable {
    let running: RunningReferenceServer
    let session: URLSession

    var store: ReferenceStore { running.store }

    /// Runs `body` against a fresh server (TestSupport's `withReferenceServer`), which is stopped
    /// and awaited whatever happens.
    static func with<T: Sendable>(
        // Tokens live an hour: a test that is about expiry sets its own lifetime or expires them
        // itself, and under a loaded machine a suite can take longer than the default 60 s.
        _ configuration: ReferenceServerConfiguration = ReferenceServerConfiguration(seedUsers: 200, accessTokenTTL: .seconds(3600)),
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        try await withReferenceServer(configuration) { running in
            let sessionConfiguration = URLSessionConfiguration.ephemeral
            sessionConfiguration.urlCache = nil
            sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
            // A hang detector, not a speed limit: under a load average of 30 (three engineers' builds on
            // two cores) a 10 s limit failed every suite of this target at once.
            sessionConfiguration.timeoutIntervalForRequest = 60
            let server = TestServer(running: running, session: URLSession(configuration: sessionConfiguration))
            // Nothing is left to finish once `body` is done: every request it made was awaited.
            defer { server.session.invalidateAndCancel() }
            return try await body(server)
        }
    }

    /// Sends one request; `path` may carry a query string.
    func send(
        _ method: String,
        _ path: String,
        headers: [String: String] = [:],
        body: Data? = nil
    ) async throws -> TestResponse {
        guard let url = URL(string: running.baseURL.absoluteString + path) else {
            throw TestFailure("bad path \(path)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestFailure("not an HTTP response") }
        return TestResponse(status: http.statusCode, headers: http.allHeaderFields, body: data)
    }

    func get(_ path: String, token: String? = nil, headers: [String: String] = [:]) async throws -> TestResponse {
        var headers = headers
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return try await send("GET", path, headers: headers)
    }

    /// Posts `fields` form-encoded, escaping everything outside the unreserved set.
    func postForm(_ path: String, _ fields: [(String, String)]) async throws -> TestResponse {
        try await send(
            "POST",
            path,
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data(FormBody.encode(fields).utf8)
        )
    }

    func postJSON(_ path: String, _ json: String, contentType: String = "application/json") async throws -> TestResponse {
        try await send("POST", path, headers: ["Content-Type": contentType], body: Data(json.utf8))
    }

    func patchRider(
        _ json: String,
        token: String,
        ifMatch: String? = nil,
        contentType: String = "application/merge-patch+json"
    ) async throws -> TestResponse {
        var headers = ["Authorization": "Bearer \(token)", "Content-Type": contentType]
        if let ifMatch { headers["If-Match"] = ifMatch }
        return try await send("PATCH", "/riders/me", headers: headers, body: Data(json.utf8))
    }

    /// Password grant; fails the test unless it succeeds.
    func login(_ email: String = "demo@example.com", _ password: String = "rider-demo") async throws -> TokenBody {
        let response = try await postForm(
            "/auth/token",
            [("grant_type", "password"), ("username", email), ("password", password)]
        )
        guard response.status == 200 else { throw TestFailure("login failed with \(response.status): \(response.text)") }
        return try response.decode(TokenBody.self)
    }

    func refresh(_ refreshToken: String) async throws -> TestResponse {
        try await postForm("/auth/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }
}

/// A failure of the test harness itself, with a readable message.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

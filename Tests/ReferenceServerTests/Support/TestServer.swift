import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RiderReferenceServer
import TestSupport

/// A reference server and a client to talk to it: by default requests go straight to the
/// server's router (HummingbirdTesting's `.router`), no socket involved; `over: .socket` runs it
/// on a loopback port (TestSupport's `withReferenceServer`) for what only a socket shows: ports,
/// and the `Host` a raw request names. (Through the router every request comes from one client,
/// as from one loopback address, so the login throttle counts the same.)
struct TestServer: Sendable {
    enum Connection: Sendable {
        /// Requests handed to the router in-process.
        case router
        /// A real server on a loopback port, spoken to with URLSession.
        case socket
    }

    let store: ReferenceStore
    /// Where the server says it is (the origin of the links it writes): its loopback address
    /// over a socket, `http://localhost` through the router.
    let baseURL: URL
    private let exchange: @Sendable (_ method: String, _ path: String, _ headers: [String: String], _ body: Data?)
        async throws -> TestResponse

    /// Runs `body` against a fresh server; over a socket, the server is stopped and awaited
    /// whatever happens.
    static func with<T: Sendable>(
        // Tokens live an hour: a test that is about expiry sets its own lifetime or expires them
        // itself, and a slow runner can take longer than the default 60 s over a suite.
        _ configuration: ReferenceServerConfiguration = ReferenceServerConfiguration(seedUsers: 200, accessTokenTTL: .seconds(3600)),
        over connection: Connection = .router,
        clock: TestClock? = nil,
        _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        switch connection {
        case .router:
            // The authority HummingbirdTesting's router client gives every request.
            guard let origin = URL(string: "http://localhost") else { throw TestFailure("bad origin") }
            let now: @Sendable () -> Date
            if let clock { now = { clock.now } } else { now = { Date() } }
            let (application, store) = try await ReferenceServer.unstartedApplication(configuration,
                                                                                     origin: origin.absoluteString, now: now)
            return try await application.test(.router) { client in
                try await body(TestServer(store: store, origin: origin, client: client))
            }
        case .socket:
            guard clock == nil else { throw TestFailure("a test clock needs the router connection") }
            return try await withReferenceServer(configuration) { running in
                let session = URLSession(configuration: sessionConfiguration)
                // Nothing is left to finish once `body` is done: every request it made was awaited.
                defer { session.invalidateAndCancel() }
                return try await body(TestServer(running: running, session: session))
            }
        }
    }

    private static var sessionConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // A hang detector, not a speed limit: a test that is about what the server answers must
        // not fail because the machine ran slowly.
        configuration.timeoutIntervalForRequest = 60
        return configuration
    }

    private init(store: ReferenceStore, origin: URL, client: any TestClientProtocol) {
        self.store = store
        baseURL = origin
        exchange = { method, path, headers, body in
            guard let method = HTTPRequest.Method(method) else { throw TestFailure("bad method \(method)") }
            var fields = HTTPFields()
            for (name, value) in headers {
                guard let name = HTTPField.Name(name) else { throw TestFailure("bad header name \(name)") }
                fields.append(HTTPField(name: name, value: value))
            }
            let response = try await client.executeRequest(uri: path, method: method, headers: fields,
                                                           body: body.map { ByteBuffer(bytes: $0) })
            var headerFields: [String: String] = [:]
            for field in response.headers {
                let name = field.name.canonicalName
                headerFields[name] = headerFields[name].map { "\($0), \(field.value)" } ?? field.value
            }
            return TestResponse(status: response.status.code, headerFields: headerFields, body: Data(response.body.readableBytesView))
        }
    }

    private init(running: RunningReferenceServer, session: URLSession) {
        store = running.store
        baseURL = running.baseURL
        exchange = { method, path, headers, body in
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
    }

    /// Sends one request; `path` may carry a query string.
    func send(
        _ method: String,
        _ path: String,
        headers: [String: String] = [:],
        body: Data? = nil
    ) async throws -> TestResponse {
        try await exchange(method, path, headers, body)
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

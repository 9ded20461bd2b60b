import Foundation
import RiderKit

/// A `rider-server` in its own process on a free loopback port, so the server's work and the
/// client's are separate processes as they are in real use.
final class ServerProcess: @unchecked Sendable {
    let baseURL: URL
    /// `nil` when attached to a server someone else started (the driver, for its child processes).
    private let process: Process?
    private let transport = AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))

    /// The demo account every `rider-server` seeds.
    static let demoEmail = "demo@example.com"
    static let demoPassword = "rider-demo"

    /// Uses a server that is already running.
    init(attachingTo baseURL: URL) {
        self.baseURL = baseURL
        process = nil
    }

    /// Starts one; access tokens live an hour unless told, so only the benchmark expires them.
    init(seedUsers: Int = 100, accessTTL: Int = 3_600) throws {
        let process = Process()
        self.process = process
        process.executableURL = try Binaries.url("rider-server")
        // The hooks: the storm expires every access token and reads the refresh count over HTTP.
        process.arguments = ["--port", "0", "--seed-users", String(seedUsers), "--access-ttl", String(accessTTL),
                             "--enable-test-hooks", "--dpop", "supported", "--exit-with-parent"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()

        // The first line is the base URL.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard let url = URL(string: text), url.host != nil else {
            process.terminate()
            throw BenchFailure("rider-server did not print its address (got \(text.debugDescription))")
        }
        baseURL = url
    }

    deinit { stop() }

    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    var api: APIConfiguration {
        get throws { try APIConfiguration(baseURL: baseURL) }
    }

    /// The whole stack over `transport` (the default AsyncHTTPClientTransport unless told)
    /// against this server, signed in as the demo account; the session lives in memory, users go
    /// to `cache`.
    func signedInRiderKit(cache: any UserCache = InMemoryUserCache(),
                          transport: (any HTTPTransport)? = nil) async throws -> RiderKit {
        let transport = transport ?? AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))
        let kit = RiderKit(api: try api, transport: transport, vault: InMemoryTokenVault(), cache: cache,
                           clock: SystemClock())
        _ = try await kit.login(Credentials(email: Self.demoEmail, password: Self.demoPassword))
        return kit
    }

    /// Refresh grants the server has issued so far (`GET /_test/stats`).
    func refreshGrants() async throws -> Int {
        try await stats().refresh_grants
    }

    /// Requests the server has answered so far, `/_test/…` excepted.
    func requestCount() async throws -> Int {
        try await stats().requests
    }

    private struct Stats: Decodable { let refresh_grants: Int; let requests: Int }

    private func stats() async throws -> Stats {
        let response = try await transport.send(HTTPRequest(method: .get, url: baseURL.appendingPathComponent("_test/stats")))
        return try JSONDecoder().decode(Stats.self, from: response.body)
    }

    /// Makes every access token the server issued so far invalid (`POST /_test/expire-access-tokens`).
    func expireAccessTokens() async throws {
        let response = try await transport.send(
            HTTPRequest(method: .post, url: baseURL.appendingPathComponent("_test/expire-access-tokens")))
        guard response.status == 204 else { throw BenchFailure("expire-access-tokens answered \(response.status)") }
    }
}

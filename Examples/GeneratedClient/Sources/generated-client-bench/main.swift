import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import RiderAPI
import RiderDomain
import RiderInfrastructure
import RiderKit
import RiderKitOpenAPI
import RiderReferenceServer

// The peer rows of `make bench` (#20): one authorized `GET /auth/me`, decoded, four ways —
// the bare transport with a fixed token (the floor); the generated client over
// swift-openapi-async-http-client with a minimal bearer middleware (what a program writes instead
// of using RiderKit); the generated client with RiderKit's middleware and transport; RiderKit's
// own API — sequential and with 32 tasks, against a reference server in this process.
//
//   generated-client-bench            the full run (make bench)
//   generated-client-bench --smoke    a few requests each, so it cannot rot (make examples)

/// What a person writes to add a token to a generated client: nothing else — no refresh, no retry.
struct BearerMiddleware: ClientMiddleware {
    let token: String
    func intercept(_ request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPTypes.HTTPRequest, HTTPBody?, URL) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?))
        async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

struct Failure: Error, CustomStringConvertible { let description: String }

/// Requests per second for `total` requests spread over `tasks` concurrent tasks.
func throughput(total: Int, tasks: Int, _ request: @escaping @Sendable () async throws -> Void) async throws -> Double {
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for task in 0..<tasks {
            group.addTask {
                for _ in stride(from: task, to: total, by: tasks) { try await request() }
            }
        }
        try await group.waitForAll()
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(total) / seconds
}

let smoke = CommandLine.arguments.contains("--smoke")
let (sequential, concurrent, rounds) = smoke ? (20, 64, 1) : (600, 1_200, 5)

let server = try await ReferenceServer.start(ReferenceServerConfiguration(seedUsers: 100, accessTokenTTL: .seconds(3600)))
do {
    let rider = try RiderKit.live(configuration: RiderKit.Configuration(
        api: try APIConfiguration(baseURL: server.baseURL, requestTimeout: 60), vault: .memory,
        cache: CacheConfiguration(storage: .memory), proxies: .none))
    let session = try await rider.login(Credentials(email: "demo@example.com", password: "rider-demo"))
    let token = session.accessToken

    let bare = RiderInfrastructure.AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))
    let me = server.baseURL.appendingPathComponent("auth/me")
    let fixed = RiderDomain.HTTPRequest(method: .get, url: me,
                                        headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"])
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let generated = Client(serverURL: server.baseURL, transport: OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(),
                           middlewares: [BearerMiddleware(token: token)])
    let withRiderKit = Client(serverURL: server.baseURL, transport: RiderKitTransport(rider),
                              middlewares: [RiderSessionMiddleware(rider)])
    let expectOK: @Sendable (Operations.currentUser.Output) throws -> Void = { output in
        guard case .ok(let ok) = output, (try? ok.body.json) != nil else { throw Failure(description: "not 200: \(output)") }
    }
    let ways: [(String, @Sendable () async throws -> Void)] = [
        ("bare AsyncHTTPClientTransport, fixed token, JSON decoded", {
            let response = try await bare.send(fixed)
            guard response.status == 200 else { throw Failure(description: "bare: \(response.status)") }
            _ = try decoder.decode(Components.Schemas.User.self, from: response.body)
        }),
        ("generated client + swift-openapi-async-http-client + a bearer middleware", { try expectOK(try await generated.currentUser()) }),
        ("generated client + RiderSessionMiddleware + RiderKitTransport", { try expectOK(try await withRiderKit.currentUser()) }),
        ("RiderKit's own API (rider.currentUser, network only)", { _ = try await rider.currentUser(policy: .networkOnly) }),
    ]
    for (_, request) in ways { for _ in 0..<20 { try await request() } }  // warm connections and caches

    var results = Array(repeating: (sequential: [Double](), concurrent: [Double]()), count: ways.count)
    for _ in 0..<rounds {
        for (index, way) in ways.enumerated() {
            results[index].sequential.append(try await throughput(total: sequential, tasks: 1, way.1))
            results[index].concurrent.append(try await throughput(total: concurrent, tasks: 32, way.1))
        }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let floor = (median(results[0].sequential), median(results[0].concurrent))
    print("| **Generated OpenAPI client (peer): authorized GET /auth/me, decoded** — floor: the bare AsyncHTTPClientTransport with a fixed token, median of \(rounds) | | | |")
    for (index, way) in ways.enumerated().dropFirst() {
        let (s, c) = (median(results[index].sequential), median(results[index].concurrent))
        print("| \(way.0): sequential | \(Int(s)) req/s | \(Int(floor.0)) req/s | \(String(format: "%.2f", s / floor.0)) |")
        print("| \(way.0): 32 tasks | \(Int(c)) req/s | \(Int(floor.1)) req/s | \(String(format: "%.2f", c / floor.1)) |")
    }
    let own = median(results[3].sequential), peer = median(results[1].sequential)
    let ownConcurrent = median(results[3].concurrent), peerConcurrent = median(results[1].concurrent)
    print("")
    let verdict = smoke ? "SMOKE (too few requests to judge)" : own >= peer * 0.97 && ownConcurrent >= peerConcurrent * 0.97 ? "PASS" : "MISS"
    print("\(verdict)  RiderKit's own API is at least "
        + "as fast as the generated client with a bearer middleware (within 3 %): \(Int(own)) vs \(Int(peer)) req/s sequential, "
        + "\(Int(ownConcurrent)) vs \(Int(peerConcurrent)) with 32 tasks")
    await rider.close()
    await bare.shutdown()
} catch {
    await server.stop()
    FileHandle.standardError.write(Data("generated-client-bench: \(error)\n".utf8))
    exit(1)
}
await server.stop()

import ArgumentParser
import Foundation
import RiderKit

/// `rider-bench requests`: see ``RequestOverhead``.
struct RequestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requests", abstract: "Whole-stack GET /auth/me vs the bare transport, sequential and concurrent.")

    /// One path alone, for a profiler (`perf stat`, `perf sched`) to see it without the other.
    /// `instant`: the whole stack over a transport that answers at once with the server's
    /// recorded answer — RiderKit's own work alone, no network and no thread wake-up.
    enum Path: String, ExpressibleByArgument, CaseIterable {
        case bare, wholeStack = "whole-stack", instant
    }

    @OptionGroup var options: ScenarioOptions

    @Option(help: "Run only this path (bare, whole-stack, or instant: the whole stack over a transport answering at once) for --count requests, with this many tasks, and print its rate: for profiling; no table.")
    var only: Path?

    @Option(help: "Requests for --only.")
    var count = 20_000

    @Option(help: "Concurrent tasks for --only.")
    var tasks = 1

    func run() async throws {
        let server = try options.startServer()
        defer { server.stop() }
        if let only {
            let kit = try await server.signedInRiderKit()
            guard let token = try await kit.sessions.currentSession()?.accessToken else { throw BenchFailure("no session") }
            let bare = AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))
            let request = HTTPRequest(method: .get, url: try server.api.baseURL.appendingPathComponent("auth/me"),
                                      headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"])
            let body: @Sendable () async throws -> Void
            switch only {
            case .bare:
                body = {
                    let response = try await bare.send(request)
                    guard response.status == 200 else { throw BenchFailure("bare GET /auth/me answered \(response.status)") }
                }
            case .wholeStack:
                body = { _ = try await kit.currentUser(policy: .networkOnly) }
            case .instant:
                let instant = InstantTransport(response: try await bare.send(request))
                let instantKit = RiderKit(api: try server.api, transport: instant, vault: InMemoryTokenVault(),
                                          cache: InMemoryUserCache(), clock: SystemClock())
                guard let session = try await kit.sessions.currentSession() else { throw BenchFailure("no session") }
                try await instantKit.sessions.establish(session)
                body = { _ = try await instantKit.currentUser(policy: .networkOnly) }
            }
            _ = await Load.run(requests: 500, concurrency: tasks, body)
            let result = await Load.run(requests: count, concurrency: tasks, body)
            print("\(only.rawValue): \(count) requests, \(tasks) tasks: \(Int(result.requestsPerSecond)) req/s, \(result.failures) failed")
            return
        }
        try options.emit(try await (options.smoke ? RequestOverhead.smoke : RequestOverhead()).run(on: server))
    }
}

import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderReferenceServer

/// The real client stack (use cases → session engine → the default AsyncHTTPClientTransport) wired to a
/// reference server on a loopback port, with an in-memory vault and an in-memory cache unless told.
struct ReferenceServerHarness {
    let server: RunningReferenceServer
    let api: APIConfiguration
    let vault: InMemoryTokenVault
    let cache: any UserCache
    let sessions: SessionEngine
    let client: APIClient

    static let demo = Credentials(email: "demo@example.com", password: "rider-demo")

    static func start(_ configuration: ReferenceServerConfiguration = .init(seedUsers: 200),
                      cache: (any UserCache)? = nil,
                      metrics: any MetricsRecorder = NoMetrics()) async throws -> ReferenceServerHarness
    {
        let server = try await ReferenceServer.start(configuration)
        // Generous timeouts: the whole suite shares two cores, and a request that times out in a
        // queue would turn a correctness test into a speed test.
        let api = try APIConfiguration(baseURL: server.baseURL, requestTimeout: 60)
        let transport = RequestPipeline(transport: AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none)),
                                        middlewares: [MeasuringMiddleware(metrics: metrics)])
        let vault = InMemoryTokenVault()
        let sessions = SessionEngine(configuration: api, transport: transport, vault: vault, clock: SystemClock(),
                                     metrics: metrics)
        return ReferenceServerHarness(
            server: server, api: api, vault: vault, cache: cache ?? InMemoryUserCache(), sessions: sessions,
            client: APIClient(configuration: api, transport: transport, sessions: sessions, metrics: metrics))
    }

    var login: Login { Login(api: client, sessions: sessions) }
    var logout: Logout { Logout(api: client, sessions: sessions, cache: cache) }
    var currentUser: CurrentUser { CurrentUser(api: client, sessions: sessions, cache: cache, clock: SystemClock()) }
    var searchUsers: SearchUsers { SearchUsers(api: client, cache: cache, clock: SystemClock()) }
    var getUser: GetUser { GetUser(api: client, cache: cache, clock: SystemClock()) }
    var getRider: GetRider { GetRider(api: client) }
    var updateRider: UpdateRider { UpdateRider(api: client) }
    var register: Register { Register(api: client) }
    var refreshSession: RefreshSession { RefreshSession(sessions: sessions) }

    func stop() async { await server.stop() }
}

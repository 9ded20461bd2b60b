import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure

/// The composition root: every use case, wired to a set of adapters.
///
/// ```swift
/// let rider = try RiderKit.live(configuration: .load())
/// let session = try await rider.login(Credentials(email: "demo@example.com", password: secret))
/// let page = try await rider.searchUsers("jo", page: PageRequest())
/// ```
///
/// The only type that knows every concrete adapter. Programs that want other adapters (a test
/// stub transport, their own vault) use ``init(api:transport:vault:cache:clock:)``.
public struct RiderKit: Sendable {
    public let api: APIConfiguration
    /// The session engine shared by every use case (single-flight refresh lives here).
    public let sessions: SessionEngine
    /// Where sessions are kept (for ``VaultChoice/automatic``, the vault that decides on first use).
    public let vault: any TokenVault
    public let vaultLocation: String

    public let login: Login
    public let logout: Logout
    public let register: Register
    public let refreshSession: RefreshSession
    public let restoreSession: RestoreSession
    public let currentUser: CurrentUser
    public let getUser: GetUser
    public let searchUsers: SearchUsers
    public let getRider: GetRider
    public let updateRider: UpdateRider

    /// Wires the use cases to the given adapters.
    ///
    /// `transport` is wrapped in ``RedirectFollowingTransport``, so redirects are followed without
    /// leaking credentials whatever transport is given (give one that does not follow redirects
    /// itself, as ``URLSessionTransport`` does not).
    /// - Parameter lock: taken around every refresh; pass a ``FileRefreshLock`` when other
    ///   processes share the vault.
    public init(api: APIConfiguration, transport: any HTTPTransport, vault: any TokenVault,
                cache: any UserCache, clock: any Clock, lock: any RefreshLock = InProcessRefreshLock()) {
        let transport = RedirectFollowingTransport(base: transport)
        let sessions = SessionEngine(configuration: api, transport: transport, vault: vault, clock: clock, lock: lock)
        let client = APIClient(configuration: api, transport: transport, sessions: sessions)
        self.api = api
        self.sessions = sessions
        self.vault = vault
        self.vaultLocation = vault.location
        login = Login(api: client, sessions: sessions, clock: clock)
        logout = Logout(api: client, sessions: sessions, cache: cache)
        register = Register(api: client)
        refreshSession = RefreshSession(sessions: sessions)
        restoreSession = RestoreSession(sessions: sessions)
        currentUser = CurrentUser(api: client, cache: cache, clock: clock)
        getUser = GetUser(api: client, cache: cache, clock: clock)
        searchUsers = SearchUsers(api: client, cache: cache, clock: clock)
        getRider = GetRider(api: client)
        updateRider = UpdateRider(api: client)
    }

    /// The production wiring: URLSession over the network, the configured vault (by default the
    /// keyring, else the encrypted file), the system clock.
    /// - Throws: ``RiderError/invalidConfiguration(_:)``.
    public static func live(configuration: Configuration) throws -> RiderKit {
        var transport: any HTTPTransport = URLSessionTransport(
            configuration: .init(timeout: configuration.api.requestTimeout))
        if let logger = configuration.logger {
            transport = LoggingTransport(base: transport, logger: logger)
        }
        let vaults = VaultFactory(configuration: configuration)
        let vault = vaults.make()
        // The persistent SQLite cache arrives with issue #5; until then users are remembered
        // for the life of the process.
        return RiderKit(api: configuration.api, transport: transport, vault: vault,
                        cache: InMemoryUserCache(), clock: SystemClock(), lock: vaults.refreshLock())
    }

    /// Where the session is kept now: for ``VaultChoice/automatic``, the backend it settled on.
    public func currentVaultLocation() async -> String {
        guard let automatic = vault as? AutomaticTokenVault else { return vault.location }
        return await automatic.select().vault.location
    }

    /// Everything in memory: nothing touches the disk. Pass a transport (a stub, a recorder) to
    /// keep the network out as well.
    public static func inMemory(api: APIConfiguration, transport: (any HTTPTransport)? = nil,
                                session: Session? = nil, clock: any Clock = SystemClock()) -> RiderKit {
        RiderKit(api: api, transport: transport ?? URLSessionTransport(configuration: .init(timeout: api.requestTimeout)),
                 vault: InMemoryTokenVault(session: session), cache: InMemoryUserCache(), clock: clock)
    }
}

import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderKit
import Testing

/// The application layer wired to test doubles: a ``StubTransport``, a ``SpyTokenVault``, an
/// `InMemoryUserCache` and a ``ManualClock``, with one ``SessionEngine`` and ``APIClient`` over
/// them, a factory for each use case, and the facade's resource groups (``profile``, ``sports``)
/// over the same client.
public struct UseCaseHarness: Sendable {
    public let configuration: APIConfiguration
    public let transport: StubTransport
    public let vault: SpyTokenVault
    /// An `InMemoryUserCache`, typed as the port so tests need not import RiderInfrastructure.
    public let cache: any UserCache
    /// An `InMemorySportCatalogueCache`, typed as the port.
    public let sportCatalogue: any SportCatalogueCache
    public let clock: ManualClock
    public let sessions: SessionEngine
    package let api: APIClient

    /// - Parameters:
    ///   - configuration: the API configuration; ``Fixtures/configuration(baseURL:clientID:clientSecret:clientAuthentication:refreshLeeway:)``
    ///     unless told.
    ///   - session: the session already in the vault (`nil`: signed out).
    ///   - clock: the clock, starting at ``Fixtures/epoch`` unless told.
    ///   - sourceLocation: where the transport reports unexpected requests.
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` when the default configuration cannot be built.
    public init(
        configuration: APIConfiguration? = nil,
        session: Session? = nil,
        clock: ManualClock = ManualClock(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let configuration = try configuration ?? Fixtures.configuration()
        let transport = StubTransport(sourceLocation: sourceLocation)
        let vault = SpyTokenVault(session: session)
        let sessions = SessionEngine(configuration: configuration, transport: transport, vault: vault, clock: clock)
        self.configuration = configuration
        self.transport = transport
        self.vault = vault
        self.cache = InMemoryUserCache()
        self.sportCatalogue = InMemorySportCatalogueCache()
        self.clock = clock
        self.sessions = sessions
        self.api = APIClient(configuration: configuration, transport: transport, sessions: sessions)
    }

    /// A client like ``api`` whose authorized requests, when the session has expired for good,
    /// have the harness's engine ask `reauthentication` (the account's email comes from the
    /// harness's cache): the pipeline's re-authentication step in front of its others.
    /// - Parameter reauthentication: asks the person to sign in again.
    /// - Returns: the client.
    package func api(reauthenticating reauthentication: Reauthentication) async -> APIClient {
        let cache = self.cache
        var reauthentication = reauthentication
        reauthentication.emailOfAccount = { try? await cache.user(id: $0)?.value.email }
        await sessions.reauthenticate(with: reauthentication)
        return APIClient(configuration: configuration, pipeline: RequestPipeline(transport: transport, middlewares: [
            ReauthenticationMiddleware(sessions: sessions),
            RetryMiddleware(clock: clock),
            AuthorizationMiddleware(sessions: sessions),
        ]))
    }

    /// A client like ``api(reauthenticating:)`` that also signs in again for a scope a resource
    /// asks for (`403 insufficient_scope`): the pipeline's step-up step in front of the others.
    /// - Parameter reauthentication: asks the person to sign in again.
    /// - Returns: the client.
    package func api(steppingUpWith reauthentication: Reauthentication) async -> APIClient {
        await sessions.reauthenticate(with: reauthentication)
        return APIClient(configuration: configuration, pipeline: RequestPipeline(transport: transport, middlewares: [
            StepUpMiddleware(sessions: sessions),
            ReauthenticationMiddleware(sessions: sessions),
            RetryMiddleware(clock: clock),
            AuthorizationMiddleware(sessions: sessions),
        ]))
    }

    /// A harness whose vault holds ``Fixtures/session(accessToken:refreshToken:lifetime:issuedAt:userID:)``.
    /// - Parameters:
    ///   - session: the stored session.
    ///   - configuration: the API configuration.
    ///   - sourceLocation: where the transport reports unexpected requests.
    /// - Returns: the harness.
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` when the default configuration cannot be built.
    public static func signedIn(
        _ session: Session = Fixtures.session(),
        configuration: APIConfiguration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> UseCaseHarness {
        try UseCaseHarness(configuration: configuration, session: session, sourceLocation: sourceLocation)
    }

    /// The full path of an API `path` under the base URL (`/users` → `/v1/users` for a `/v1` base).
    /// - Parameter path: a path of the contract.
    /// - Returns: the path the transport sees.
    public func path(_ path: String) -> String {
        (try? configuration.url(for: path).path) ?? path
    }

    /// Scripts the token endpoint to answer `times` refresh requests (or any number) with `reply`.
    /// - Parameters:
    ///   - times: how many refreshes to answer; `nil` for any number.
    ///   - reply: the answer, a new token pair unless told.
    public func stubTokenEndpoint(times: Int? = nil, with reply: StubReply = .successful(
        Fixtures.tokenResponse(accessToken: "access-2", refreshToken: "refresh-2"))
    ) {
        transport.stub(.post, path(configuration.tokenPath), times: times, with: reply)
    }

    public var login: Login { Login(sessions: sessions) }
    public var logout: Logout { Logout(sessions: sessions, cache: cache) }
    public var register: Register { Register(api: api) }
    public var currentUser: CurrentUser { CurrentUser(api: api, sessions: sessions, cache: cache, clock: clock) }
    public var getUser: GetUser { GetUser(api: api, cache: cache, clock: clock) }
    public var searchUsers: SearchUsers { SearchUsers(api: api, cache: cache, clock: clock) }
    public var listUsers: ListUsers { ListUsers(api: api, cache: cache, clock: clock) }
    package var updateRider: UpdateRider { UpdateRider(api: api) }
    package var uploadAvatar: UploadAvatar { UploadAvatar(api: api) }
    package var listSports: ListSports { ListSports(api: api, catalogue: sportCatalogue, clock: clock) }
    package var updatePreferences: UpdatePreferences { UpdatePreferences(api: api) }
    public var deleteAccount: DeleteAccount { DeleteAccount(api: api, sessions: sessions, cache: cache) }

    /// `RiderKit.profile` over ``api``.
    public var profile: RiderKit.Profile { RiderKit.Profile(api: api) }
    /// `RiderKit.sports` over ``api`` and ``sportCatalogue``.
    public var sports: RiderKit.Sports { RiderKit.Sports(api: api, catalogue: sportCatalogue, clock: clock) }

    /// An authorized request through ``api`` (the rider's profile, `GET /riders/me`): what the
    /// session tests send to watch the engine hand out, renew and give up tokens.
    /// - Returns: the profile.
    /// - Throws: as `RiderKit.Profile.get()`.
    public func getRider() async throws -> Rider {
        try await api.send(API.myRider)
    }
}

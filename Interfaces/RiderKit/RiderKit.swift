import Foundation
import Logging
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderOpenIDConnect

/// The composition root: every use case, wired to a set of adapters.
///
/// ```swift
/// let rider = try RiderKit.live(configuration: .load())
/// let session = try await rider.login(Credentials(email: "demo@example.com", password: secret))
/// let page = try await rider.searchUsers("jo", page: PageRequest())
/// let me = try await rider.profile.get()
/// ```
///
/// The signed-in rider's own data is grouped by resource: ``profile``, ``sports`` and ``cache``;
/// the session is ``sessions``.
///
/// The only type that knows every concrete adapter. Programs that want other adapters (a test
/// stub transport, their own vault) use
/// ``init(api:transport:vault:cache:clock:lock:cacheSettings:clearsCacheOnLogout:identity:sportCatalogue:reauthentication:metrics:avatarUpload:userAgent:)``.
public struct RiderKit: Sendable {
    public let api: APIConfiguration
    /// Where token and revocation requests go: ``api``'s paths, or an issuer's discovered endpoints.
    package let authorizationServer: AuthorizationServer
    /// The session engine shared by every use case (single-flight refresh lives here): where the
    /// session stands (`currentSession()`), renewing it now (`refresh()`), its changes.
    public let sessions: SessionEngine
    /// Where sessions are kept (for ``live(configuration:)``, an `AccountTokenVault`: each
    /// account's session in its own keyring item or file).
    package let vault: any TokenVault
    /// The accounts stored for this server: list, the active one, switch, remove, their changes.
    /// This `RiderKit` speaks for one of them (`Accounts.current()`).
    public let accounts: Accounts

    public let login: Login
    /// Signs in with a code the person approves on another device (RFC 8628), for providers
    /// that offer it (discovered from `issuer`).
    public let signInWithDeviceCode: SignInWithDeviceCode
    /// Signs in through the provider's page in a browser, back on a loopback redirect (the
    /// authorization code flow with PKCE, RFC 8252), for providers that offer it.
    public let signInWithBrowser: SignInWithBrowser
    public let logout: Logout
    public let register: Register
    public let currentUser: CurrentUser
    public let getUser: GetUser
    public let searchUsers: SearchUsers
    /// Every user by id, a page at a time or all pages lazily (`ListUsers.all(pageSize:)`).
    public let listUsers: ListUsers
    /// The signed-in rider's profile: read and edit it, its avatar, base location and preferences.
    public let profile: Profile
    /// The sport catalogue (kept in `sports.json` for ``live(configuration:)`` for as long as the
    /// server allows) and the signed-in rider's sports and levels.
    public let sports: Sports
    /// Deletes the signed-in account on the server, then its session and cached users here.
    public let deleteAccount: DeleteAccount
    /// What the user cache holds (`rider cache stats`), and emptying it (`rider cache clear`).
    public let cache: Cache
    /// Refreshes started by `CachePolicy.staleWhileRevalidate`; ``close()`` waits for them, so a
    /// program that is about to exit calls it.
    package let backgroundRefreshes: BackgroundRefreshes
    /// The user cache as the use cases see it, for ``close()``.
    private let userCache: any UserCache
    /// The steps every authorized request takes, outermost first, ending before the transport:
    /// what `RiderKitOpenAPI` puts in front of a generated client's transport.
    package let authorizedSteps: [any HTTPMiddleware]
    /// The transport as configured, without any step: what `RiderKitOpenAPI`'s transport sends with.
    package let transport: any HTTPTransport
    /// Each account's user cache, for ``checkCache()``; `nil` when the program gave its own cache.
    private let userCaches: AccountScoped<any UserCache>?

    /// Wires the use cases to the given adapters.
    ///
    /// Every request goes through the one pipeline `RiderKit.pipeline(sessions:reauthenticates:…)`
    /// declares, so redirects are followed without leaking credentials whatever transport is
    /// given (give one that does not follow redirects itself, as `AsyncHTTPClientTransport` and
    /// `URLSessionTransport` do not).
    /// - Parameters:
    ///   - api: the server's address and paths, the client's identity, the timeout.
    ///   - transport: sends every request (wrapped as above).
    ///   - vault: where the session is kept.
    ///   - cache: where users seen are kept for offline reads.
    ///   - clock: the current instant, for token expiry and cache freshness.
    ///   - lock: taken around every refresh; pass a `FileRefreshLock` when other processes
    ///     share the vault. `nil` (the default) serializes refreshes within this process only.
    ///   - cacheSettings: time to live and stale window of cached users.
    ///   - clearsCacheOnLogout: whether `logout` empties the cache.
    ///   - identity: the `User-Agent` (RiderKit, its version and your program) and
    ///     `Accept-Language` every request carries.
    ///   - sportCatalogue: where the sport catalogue is kept between calls; in memory unless told.
    ///   - reauthentication: what to do when the session has expired for good (for example show a
    ///     login form); `nil` lets `RiderError.sessionExpired` reach the caller.
    ///   - metrics: told of every request attempt, retry, refresh and cache lookup (for example a
    ///     `SwiftMetricsRecorder`).
    ///   - avatarUpload: the largest avatar image sent (5 MiB unless told).
    ///   - userAgent: presents the provider's sign-in page and receives its redirect; the system
    ///     browser and `127.0.0.1` on a port the system picks unless told — a program with a
    ///     window may show the page in its own web view.
    public init(api: APIConfiguration, transport: any HTTPTransport, vault: any TokenVault,
                cache: any UserCache, clock: any Clock, lock: (any RefreshLock)? = nil,
                cacheSettings: CacheSettings = CacheSettings(), clearsCacheOnLogout: Bool = true,
                identity: RequestIdentity = RequestIdentity(),
                sportCatalogue: (any SportCatalogueCache)? = nil,
                reauthentication: Reauthentication? = nil, metrics: any MetricsRecorder = NoMetrics(),
                avatarUpload: UploadAvatar.Configuration = UploadAvatar.Configuration(),
                userAgent: any ExternalUserAgent = LoopbackBrowserUserAgent()) {
        self.init(api: api, transport: transport, vault: vault, cache: cache, clock: clock, lock: lock,
                  cacheSettings: cacheSettings, clearsCacheOnLogout: clearsCacheOnLogout, identity: identity,
                  sportCatalogue: sportCatalogue, reauthentication: reauthentication, metrics: metrics,
                  avatarUpload: avatarUpload, userAgent: userAgent, refreshJitter: nil)
    }

    /// The same, with the share of the refresh leeway left unused told (`RiderKit.testing`: none,
    /// so a test's clock can be moved to the leeway's edge); `nil` draws one per instance.
    package init(api: APIConfiguration, transport: any HTTPTransport, vault: any TokenVault,
                 cache: any UserCache, clock: any Clock, lock: (any RefreshLock)?,
                 cacheSettings: CacheSettings, clearsCacheOnLogout: Bool, identity: RequestIdentity,
                 sportCatalogue: (any SportCatalogueCache)?, reauthentication: Reauthentication?,
                 metrics: any MetricsRecorder, avatarUpload: UploadAvatar.Configuration,
                 userAgent: any ExternalUserAgent, refreshJitter: Double?) {
        self.init(api: api, transport: transport, vault: vault, cache: cache, clock: clock,
                  lock: lock ?? InProcessRefreshLock(), cacheSettings: cacheSettings,
                  clearsCacheOnLogout: clearsCacheOnLogout, identity: identity,
                  sportCatalogue: sportCatalogue ?? InMemorySportCatalogueCache(), reauthentication: reauthentication,
                  metrics: metrics, avatarUpload: avatarUpload, logger: nil, userAgent: userAgent,
                  tracer: SwiftDistributedTracingTracer(), refreshJitter: refreshJitter)
    }

    /// The same, with request logging as the pipeline's innermost step (``live(configuration:)``).
    package init(api: APIConfiguration, transport: any HTTPTransport, vault: any TokenVault,
                 cache: any UserCache, clock: any Clock, lock: any RefreshLock,
                 cacheSettings: CacheSettings, clearsCacheOnLogout: Bool, identity: RequestIdentity,
                 sportCatalogue: any SportCatalogueCache, reauthentication: Reauthentication?,
                 metrics: any MetricsRecorder, avatarUpload: UploadAvatar.Configuration, logger: Logger?,
                 authorizationServer: AuthorizationServer? = nil,
                 userAgent: any ExternalUserAgent = LoopbackBrowserUserAgent(),
                 caches: AccountScoped<any UserCache>? = nil,
                 catalogues: AccountScoped<any SportCatalogueCache>? = nil,
                 tracer: any SpanTracer = NoSpanTracer(), refreshJitter: Double? = nil) {
        let authorizationServer = authorizationServer ?? AuthorizationServer(configuration: api)
        // Without a recorder nothing is measured: no cost for a program that does not count.
        let metrics: (any MetricsRecorder)? = metrics is NoMetrics ? nil : metrics
        let measured: any UserCache = metrics.map { MeasuringUserCache(base: cache, metrics: $0) } ?? cache
        let tracer: (any SpanTracer)? = tracer is NoSpanTracer ? nil : tracer
        let cache: any UserCache = tracer.map { TracingUserCache(base: measured, tracer: $0) } ?? measured
        // The token endpoint's requests take the network steps only: they carry no bearer token
        // and are never sent twice.
        let network = RequestPipeline(transport: transport, middlewares: Self.pipeline(
            sessions: nil, reauthenticates: false, clock: clock, identity: identity, metrics: metrics, logger: logger,
            tracer: tracer))
        var reauthentication = reauthentication
        reauthentication?.emailOfAccount = { try? await cache.user(id: $0)?.value.email }
        // Each instance refreshes at its own point of the leeway's first half (tests pass 0).
        let sessions = SessionEngine(configuration: api, transport: network, vault: vault, clock: clock, lock: lock,
                                     refreshJitter: refreshJitter ?? Double.random(in: 0..<0.5),
                                     metrics: metrics ?? NoMetrics(), reauthentication: reauthentication,
                                     authorizationServer: authorizationServer,
                                     idTokenVerifier: JWTKitSignatureVerifier(), userAgent: userAgent,
                                     cryptography: SwiftCryptoSignInCryptography(), dpopKeys: JWTKitDPoPKeyFactory(),
                                     tracer: tracer ?? NoSpanTracer())
        let loginUseCase = Login(sessions: sessions)
        let authorizedSteps = Self.pipeline(
            sessions: sessions, reauthenticates: reauthentication != nil, clock: clock, identity: identity,
            metrics: metrics, logger: logger, tracer: tracer)
        let client = APIClient(configuration: api, pipeline: RequestPipeline(transport: transport, middlewares: authorizedSteps))
        let refreshes = BackgroundRefreshes()
        self.api = api
        self.authorizationServer = authorizationServer
        self.sessions = sessions
        self.vault = vault
        // A vault given by the program keeps one session: listed as the one account it holds.
        let accountVault = vault as? AccountTokenVault ?? AccountTokenVault(
            registry: InMemoryAccountRegistry(server: api.origin), location: vault.location,
            legacy: AccountTokenVault.LegacySession(load: { try await vault.loadSession() }, retire: { _ in }),
            vault: { _ in vault })
        accounts = Accounts(vault: accountVault, sessions: sessions, caches: caches, catalogues: catalogues)
        login = loginUseCase
        signInWithDeviceCode = SignInWithDeviceCode(sessions: sessions, clock: clock)
        signInWithBrowser = SignInWithBrowser(sessions: sessions, userAgent: userAgent,
                                              cryptography: SwiftCryptoSignInCryptography(), clock: clock)
        logout = Logout(sessions: sessions, cache: cache, clearsCache: clearsCacheOnLogout)
        register = Register(api: client)
        currentUser = CurrentUser(api: client, sessions: sessions, cache: cache, clock: clock, settings: cacheSettings,
                                  refreshes: refreshes)
        getUser = GetUser(api: client, cache: cache, clock: clock, settings: cacheSettings, refreshes: refreshes)
        searchUsers = SearchUsers(api: client, cache: cache, clock: clock, refreshes: refreshes)
        listUsers = ListUsers(api: client, cache: cache, clock: clock)
        profile = Profile(api: client, avatarUpload: avatarUpload)
        sports = Sports(api: client, catalogue: sportCatalogue, clock: clock)
        deleteAccount = DeleteAccount(api: client, sessions: sessions, cache: cache)
        self.cache = Cache(cache: cache)
        backgroundRefreshes = refreshes
        userCache = cache
        userCaches = caches
        self.authorizedSteps = authorizedSteps
        self.transport = transport
    }

    /// Signs in with `flow` — a password, a device code, the browser — and stores the session,
    /// as ``login``, ``signInWithDeviceCode`` and ``signInWithBrowser`` do:
    ///
    /// ```swift
    /// let session = try await rider.signIn(.browser { prompt in print("Sign in at \(prompt.url)") })
    /// ```
    /// - Returns: the new session, already in the vault.
    /// - Throws: what the flow throws (see `SignInFlow`'s cases), `RiderError.storage(_:)` when
    ///   the session cannot be stored (the tokens just issued are then revoked).
    public func signIn(_ flow: SignInFlow) async throws -> Session {
        try await sessions.signIn(flow)
    }

    /// Lets the background refreshes finish (of cached answers, and of the session when its
    /// token entered the leeway: one cut off after the server answered would lose the session),
    /// writes what the user cache holds back (stored answers and the recency of lookups are
    /// written in batches) and closes its file: call it before the program exits. Using this
    /// `RiderKit` afterwards opens the file again.
    public func close() async {
        await backgroundRefreshes.waitForAll()
        await sessions.finishRefreshing()
        await userCache.close()
    }

    /// Runs SQLite's full integrity check on the current account's user cache file (`rider cache
    /// check`); a damaged file is moved aside and replaced by an empty one.
    /// - Returns: the file moved aside, or `nil` when the cache is sound or is not a SQLite file.
    /// - Throws: `RiderError.storage(_:underlying:)` when the file cannot be checked.
    public func checkCache() async throws -> URL? {
        guard let userCaches, let file = try await userCaches.current() as? SQLiteUserCache else { return nil }
        return try await file.checkIntegrity()
    }

    /// The request pipeline, outermost first: the one place its order is declared
    /// (`docs/architecture.md` explains it).
    ///
    /// 1. Re-authentication, around everything: a request that found the session expired for good
    ///    is sent again, whole, after the person signed in again.
    /// 2. Retries, outside the session's step, so every attempt carries a valid token.
    /// 3. The session's step: the bearer token, and one renewal after a 401.
    /// 4. Redirects, inside the session's step, so a hop to another origin loses the token the
    ///    step added, and outside the rest, so every hop is introduced, measured and logged.
    /// 5. Identity (`User-Agent`, `Accept-Language`).
    /// 6. Metrics, so each attempt and each hop counts once.
    /// 7. Logging, closest to the wire.
    ///
    /// With a tracer, a span encloses all of it (so its children are the refresh and the retries'
    /// waits) and the attempts are counted closest to the wire.
    ///
    /// Without `sessions` the list starts at step 4: what the session engine's own requests (the
    /// token endpoint, revocation, the identity of a new session) go through. Steps 1–3 act on
    /// ``RequestOptions/isAuthorized`` requests only (retries follow each request's
    /// ``RequestOptions/retryPolicy``). Without `followsRedirects` step 4 is left out: provider
    /// discovery follows its redirects itself, within the issuer's origin only.
    static func pipeline(sessions: SessionEngine?, reauthenticates: Bool, followsRedirects: Bool = true,
                         clock: any Clock, identity: RequestIdentity, metrics: (any MetricsRecorder)?,
                         logger: Logger?, tracer: (any SpanTracer)? = nil) -> [any HTTPMiddleware] {
        var steps: [any HTTPMiddleware] = []
        if let tracer { steps.append(TracingMiddleware(tracer: tracer)) }
        if let sessions {
            steps.append(StepUpMiddleware(sessions: sessions))
            if reauthenticates { steps.append(ReauthenticationMiddleware(sessions: sessions)) }
            steps.append(RetryMiddleware(clock: clock, metrics: metrics ?? NoMetrics()))
            steps.append(AuthorizationMiddleware(sessions: sessions))
        }
        if followsRedirects { steps.append(RedirectMiddleware()) }
        steps.append(IdentityMiddleware(identity: identity))
        if let metrics { steps.append(MeasuringMiddleware(metrics: metrics)) }
        if let logger { steps.append(LoggingMiddleware(logger: logger)) }
        if tracer != nil { steps.append(AttemptCountingMiddleware()) }
        return steps
    }

    /// The production wiring: the configured transport (AsyncHTTPClient by default), the
    /// configured vault (by default the keyring, else the encrypted file), the SQLite user cache
    /// (unless configured in memory), the system clock — or, with
    /// ``Configuration/recording``, that client recording each exchange, or a recording
    /// answering instead of any network with its own clock.
    /// - Throws: `RiderError.invalidConfiguration(_:)`.
    public static func live(configuration: Configuration) throws -> RiderKit {
        func network() -> any HTTPTransport {
            configuration.transport ?? AsyncHTTPClientTransport(
                configuration: .init(timeout: configuration.api.requestTimeout, proxies: configuration.proxies))
        }
        let (transport, clock) = try configuration.recording?.make(network: network) ?? (network(), SystemClock())
        let vaults = VaultFactory(configuration: configuration)
        let origin = configuration.api.origin
        // With an issuer, the session is bound to the token endpoint its metadata names: known
        // on first use only, so the vault is made then (RiderKit+Discovery.swift).
        let server = authorizationServer(for: configuration, transport: RequestPipeline(transport: transport,
            middlewares: pipeline(sessions: nil, reauthenticates: false, followsRedirects: false, clock: clock,
                                  identity: configuration.identity, metrics: configuration.metrics,
                                  logger: configuration.logger)),
            clock: clock, cache: configuration.makeProviderMetadataCache())
        if let token = configuration.accessToken {
            return givenAccessToken(token, configuration: configuration, transport: transport, clock: clock,
                                    authorizationServer: server)
        }
        // With an issuer, the vaults are bound once its metadata names the token endpoint.
        let resolved: @Sendable () async throws -> VaultFactory = {
            server.needsDiscovery ? try await vaults.resolved(by: server) : vaults
        }
        var registry = vaults.accountRegistry { try? await resolved().binding.tokenEndpointOrigin }
        var legacy: AccountTokenVault.LegacySession? = AccountTokenVault.LegacySession(
            load: { try await resolved().legacySession().load() },
            retire: { try await resolved().legacySession().retire($0) })
        var vaultOfAccount: @Sendable (UserID) async throws -> any TokenVault = { try await resolved().make(account: $0) }
        if case .memory = configuration.vault { legacy = nil }
        if case .replay(let folder, _) = configuration.recording {
            // A replay's tokens are the recording's placeholders and its users someone else's:
            // they live beside the recording, never in the person's own vault and cache.
            let state = HTTPRecording.replayState(in: folder)
            registry = FileAccountRegistry(file: state.appendingPathComponent("accounts.json"), server: origin)
            legacy = nil
            vaultOfAccount = { account in
                EncryptedFileTokenVault(file: AccountFile.file(state.appendingPathComponent("session.vault"), for: account),
                                        passphrase: .fixed(HTTPRecording.replayPassphrase),
                                        binding: try await resolved().binding)
            }
        }
        let warnings = configuration.warnings
        let vault = AccountTokenVault(registry: registry, account: configuration.account, location: vaults.make().location,
                                      legacy: legacy, vault: vaultOfAccount, notice: { warnings?.warning("\($0)") })
        var lock: any RefreshLock = AccountScopedRefreshLock(AccountScoped(accounts: vault, nobody: vaults.refreshLock()) {
            vaults.refreshLock(account: $0)
        })
        let caches = AccountScoped<any UserCache>(accounts: vault, nobody: InMemoryUserCache()) {
            configuration.cache.makeCache(forOrigin: origin, account: $0, in: configuration.directories,
                                          logger: configuration.warnings)
        }
        // Signed out, the catalogue is the server's public one (it needs no sign-in).
        let catalogues = AccountScoped<any SportCatalogueCache>(
            accounts: vault, nobody: configuration.cache.makeSportCatalogue(forOrigin: origin, in: configuration.directories)
        ) {
            configuration.cache.makeSportCatalogue(forOrigin: origin, account: $0, in: configuration.directories)
        }
        var cache: any UserCache = AccountScopedUserCache(caches)
        var sportCatalogue: any SportCatalogueCache = AccountScopedSportCatalogue(catalogues)
        let isReplay: Bool
        if case .replay(let folder, _) = configuration.recording {
            isReplay = true
            let state = HTTPRecording.replayState(in: folder)
            lock = FileRefreshLock(file: state.appendingPathComponent("refresh.lock"))
            // Per account here too: a recording made as one account never answers for another.
            cache = AccountScopedUserCache(AccountScoped(accounts: vault, nobody: InMemoryUserCache()) {
                SQLiteUserCache(configuration: .init(file: AccountFile.file(state.appendingPathComponent("users.sqlite"), for: $0),
                                                     maximumEntries: configuration.cache.maximumEntries),
                                logger: configuration.warnings)
            })
            sportCatalogue = FileSportCatalogueCache(file: state.appendingPathComponent("sports.json"))
        } else {
            isReplay = false
        }
        return RiderKit(api: configuration.api, transport: transport, vault: vault, cache: cache,
                        clock: clock, lock: lock, cacheSettings: configuration.cache.settings,
                        clearsCacheOnLogout: configuration.cache.clearsOnLogout, identity: configuration.identity,
                        sportCatalogue: sportCatalogue, reauthentication: configuration.reauthentication,
                        metrics: configuration.metrics ?? NoMetrics(), avatarUpload: UploadAvatar.Configuration(),
                        logger: configuration.logger, authorizationServer: server, userAgent: configuration.userAgent,
                        caches: isReplay ? nil : caches, catalogues: isReplay ? nil : catalogues,
                        tracer: configuration.tracer)
    }

    /// Where the session is kept now: for ``VaultChoice/automatic``, the backend it settled on.
    public func currentVaultLocation() async -> String {
        var vault = self.vault
        if let accounts = vault as? AccountTokenVault {
            guard let account = try? await accounts.account(), let made = try? await accounts.vault(for: account) else {
                return vault.location
            }
            vault = made
        }
        guard let automatic = vault as? AutomaticTokenVault else { return vault.location }
        return await automatic.select().vault.location
    }

    /// Everything in memory: nothing touches the disk. Pass a transport (a stub, a recorder) to
    /// keep the network out as well.
    public static func inMemory(api: APIConfiguration, transport: (any HTTPTransport)? = nil,
                                session: Session? = nil, clock: any Clock = SystemClock()) -> RiderKit {
        RiderKit(api: api,
                 transport: transport ?? AsyncHTTPClientTransport(configuration: .init(timeout: api.requestTimeout)),
                 vault: InMemoryTokenVault(session: session), cache: InMemoryUserCache(), clock: clock)
    }
}

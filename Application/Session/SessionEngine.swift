import Foundation
import RiderDomain

/// Owns the signed-in session: loads it from the vault once, hands out a valid access token,
/// and refreshes it — once, however many requests need it at the same moment.
///
/// Embedding programs see a narrow view of it (`RiderKit.sessions`): where the session stands
/// (``currentSession()``), every change (``states()``), where it is kept (``vaultLocation``),
/// renewing it now (``refresh()``) and signing out here (``end()``).
///
/// Where the session stands is one value, a `SessionMachine`: this actor feeds it events,
/// performs the actions it returns (the vault, the cross-process lock, the tasks every waiter
/// joins, so a one-time refresh token is never spent twice) and shows each state it enters to
/// its publication. Across processes the `RefreshLock` does the same job. See `docs/session.md`.
///
/// What is not private here is internal only for the engine's own extensions, each one idea:
/// the refresh ahead of expiry (`SessionEngine+RefreshAhead.swift`) and signing in again
/// (`SessionEngine+Reauthentication.swift`). Nothing else in the module touches it.
public actor SessionEngine {
    var machine = SessionMachine() {
        didSet { publication.show(machine.state) }
    }
    /// The tasks every caller joins: the refresh under way, and the re-authentication question.
    private var refreshing: Task<Session, any Error>?
    var asking: Task<Session, any Error>?
    /// The step-up sign-in under way, and the scope it asks for (``stepUp(to:from:)``).
    var steppingUp: (scope: String, task: Task<Session, any Error>)?
    /// Asked for a way to sign in when the session has expired for good; `nil` lets
    /// ``RiderError/sessionExpired`` reach the caller.
    var reauthentication: Reauthentication?
    /// The server's clock ahead of the device's (negative: behind), by the last token response's `Date`.
    package private(set) var clockSkew: TimeInterval = 0

    private let publication = SessionPublication()
    /// Builds, sends and checks every token, revocation and userinfo request: the engine decides
    /// when, the service how.
    package nonisolated let service: AuthorizationService
    private let vault: any TokenVault
    /// Performs each refresh's I/O under the cross-process lock.
    private let refresher: SessionRefresh
    let refreshLeeway: TimeInterval
    /// This engine's share of the leeway not used (0 up to 0.5): see ``SessionMachine/needsRefresh(_:at:leeway:jitter:)``.
    private nonisolated let refreshJitter: Double
    /// The refresh requests start when the token enters the leeway, and do not wait for.
    nonisolated let refreshAhead = RefreshAhead()
    private let browser: (userAgent: (any ExternalUserAgent)?, cryptography: (any SignInCryptography)?)
    /// The clock every decision about expiry and backoff is made with.
    package nonisolated let clock: any Clock
    /// The API's base URL: the origin the session's access token is sent to, and no other.
    package nonisolated let apiBaseURL: URL

    /// - Parameters:
    ///   - configuration, transport: the client and its endpoints; the network steps only.
    ///   - vault: where the session is loaded from once and every renewed session is saved.
    ///   - lock: shared with other processes using the same vault (``InProcessRefreshLock`` if none).
    ///   - reauthentication: asked for a way to sign in when the session has expired for good.
    ///   - authorizationServer: where token and revocation requests go; the configuration's own paths unless told.
    ///   - idTokenVerifier: checks id_tokens' signatures (OpenID Connect); without one they are not read.
    ///   - userAgent, cryptography, dpopKeys: what a browser sign-in (run by a re-authentication
    ///     too) presents with, and what binds tokens to a key (DPoP); without keys no sign-in does.
    ///   - refreshJitter: how much of the leeway this engine leaves unused (0 up to 0.5), so
    ///     instances of one account refresh at different moments; none unless told (tests move
    ///     the clock to the leeway's edge), RiderKit draws one per instance.
    package init(configuration: APIConfiguration, transport: any HTTPTransport, vault: any TokenVault,
                 clock: any Clock, lock: any RefreshLock = InProcessRefreshLock(), refreshJitter: Double = 0,
                 metrics: any MetricsRecorder = NoMetrics(), reauthentication: Reauthentication? = nil,
                 authorizationServer: AuthorizationServer? = nil,
                 idTokenVerifier: (any IDTokenSignatureVerifier)? = nil,
                 userAgent: (any ExternalUserAgent)? = nil, cryptography: (any SignInCryptography)? = nil,
                 dpopKeys: (any DPoPKeyFactory)? = nil, tracer: any SpanTracer = NoSpanTracer()) {
        browser = (userAgent, cryptography)
        service = AuthorizationService(configuration: configuration,
                                       server: authorizationServer ?? AuthorizationServer(configuration: configuration),
                                       transport: transport, idTokenVerifier: idTokenVerifier, clock: clock,
                                       dpopKeys: dpopKeys)
        self.reauthentication = reauthentication
        refreshLeeway = configuration.refreshLeeway
        self.refreshJitter = refreshJitter
        apiBaseURL = configuration.baseURL
        let vault = tracer is NoSpanTracer ? vault : TracingTokenVault(base: vault, tracer: tracer)
        self.vault = vault
        refresher = SessionRefresh(vault: vault, lock: lock, metrics: metrics, tracer: tracer)
        self.clock = clock
    }

    /// Where the session is kept (the vault's location).
    public nonisolated var vaultLocation: String { vault.location }

    /// The session state now and every change after it, until the caller stops iterating.
    ///
    /// Loads the session from the vault first if nothing has yet; if the vault cannot be read,
    /// the stream starts with the first change instead.
    public func states() async -> AsyncStream<SessionState> {
        _ = try? await standing()
        return publication.states()
    }

    /// The stored session, without contacting the server.
    /// - Throws: `RiderError.storage(_:)` when the vault cannot be read.
    public func currentSession() async throws -> Session? {
        try await standing().usable
    }

    /// Where the session stands, read from the vault the first time: lets a request tell "no
    /// session because it expired" (wait for the re-authentication) from "no session at all".
    /// - Throws: ``RiderError/storage(_:underlying:)`` when the vault cannot be read.
    package func standing() async throws -> SessionMachine.State {
        if case .unloaded = machine.state { machine.loaded(try await vault.loadSession()) }
        return machine.state
    }

    /// Runs `flow` and makes the session of the tokens it was issued.
    /// - Returns: the new session, already in the vault; when it cannot be stored, the tokens just
    ///   issued are revoked on the server and `RiderError.storage(_:)` thrown.
    package func signIn(_ flow: SignInFlow) async throws -> Session {
        try await flow.run(signInContext)
    }

    /// What a sign-in flow runs with now.
    package var signInContext: SignInContext {
        SignInContext(service: service, clock: clock, clockSkew: clockSkew, userAgent: browser.userAgent,
                      cryptography: browser.cryptography, establish: { try await self.signIn(issuedBy: $0) })
    }

    /// Signs in with tokens the token endpoint just issued and the service checked, whatever the
    /// flow; the service names the account (the id_token's, userinfo's, the server's, the API's).
    private func signIn(issuedBy grant: TokenGrant) async throws -> Session {
        let session = try await service.signedIn(try self.session(from: grant, userID: UserID(""), previous: nil),
                                                 namedByGrant: grant.userID != nil)
        do {
            try await establish(session)
        } catch {
            // The server issued tokens nobody can keep (for example the vault has no passphrase).
            await service.revokeUnkept(session)
            throw error
        }
        return session
    }

    /// Makes `newSession` the signed-in session, writing it to the vault first.
    /// - Throws: `RiderError.storage(_:)`; the previous session then stays in place.
    package func establish(_ newSession: Session) async throws {
        try await vault.saveSession(newSession)
        machine.signedIn(newSession)
    }

    /// The session a token response describes, issued now, its expiry corrected by the server's
    /// clock as that response shows it (``TokenGrant/serverDate``).
    private func session(from grant: TokenGrant, userID: UserID?, previous: Session?) throws -> Session {
        let now = clock.now
        if let skew = grant.clockSkew(receivedAt: now) { clockSkew = skew }
        return try grant.session(issuedAt: now, userID: userID, previous: previous, clockSkew: clockSkew)
    }

    /// Forgets the session here and in the vault.
    /// - Throws: `RiderError.storage(_:)` when the vault entry cannot be removed.
    public func end() async throws {
        // A refresh under way drops its result (it checks the generation before keeping anything),
        // but finishes first all the same: it must not write its session after the removal.
        machine.signedOut()
        if let refreshing { _ = try? await refreshing.value }
        // A sign-in that completed meanwhile is signed out too: the vault will not have it.
        machine.signedOut()
        try await vault.removeSession()
    }

    /// Forgets that the session expired, as a sign-out does (for a logout that finds it expired):
    /// later requests are `RiderError.notSignedIn` and nobody is asked to sign in again.
    package func forgetExpiredSession() {
        machine.forgetExpiry()
    }

    /// The session to send a request with: its access token has not expired. Inside the leeway
    /// the token is handed out as it is, and one refresh runs beside the requests (see
    /// ``RefreshAhead``); only a token that has expired waits for the refresh.
    /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired` (also for every call after
    ///   that, until the next sign-in or sign-out), or the error of the refresh an expired token
    ///   waited for.
    package nonisolated func validSession() async throws -> Session {
        if let current = publication.session {
            let now = clock.now
            if !isDue(current, at: now) { return current }
            if !current.isExpired(at: now) {
                startRefreshAhead(at: now)
                return current
            }
        }
        return try await validSessionOnActor(waiting: false)
    }

    /// A session whose access token is not due for a refresh, renewing it first when it is: for
    /// handing the token out of the process (`rider session token`), where nothing renews it
    /// after a 401.
    /// - Throws: as ``validSession()``; a failed renewal of a token that has not expired yet
    ///   hands that token out instead.
    package func freshSession() async throws -> Session {
        try await validSessionOnActor(waiting: true)
    }

    nonisolated func isDue(_ session: Session, at now: Date) -> Bool {
        SessionMachine.needsRefresh(session, at: now, leeway: refreshLeeway, jitter: refreshJitter)
    }

    private func validSessionOnActor(waiting: Bool) async throws -> Session {
        guard let current = try await currentSession() else { throw machine.noSessionError }
        let now = clock.now
        guard isDue(current, at: now) else { return current }
        if !waiting, !current.isExpired(at: now) {
            startRefreshAhead(at: now)
            return current
        }
        do {
            return try await refreshSingleFlight(rejecting: nil)
        } catch let error as RiderError where error.isTransient && !current.isExpired(at: clock.now) {
            // Renewing early failed, but the old token still works for a while.
            return current
        }
    }

    /// The session to retry with after the server rejected `rejectedAccessToken` with 401: the
    /// newer one at once when another request already replaced that token.
    /// - Throws: as ``refresh()``, and `RiderError.server(status:detail:)` with status 401 when
    ///   the server has rejected too many freshly refreshed tokens in a row (a refresh loop).
    package func renew(afterRejecting rejectedAccessToken: String) async throws -> Session {
        try await refreshSingleFlight(rejecting: rejectedAccessToken)
    }

    /// Exchanges the refresh token for a new session now, even if the current one is still valid,
    /// joining a refresh already under way. Returns the renewed session, already stored.
    /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired` (the stored session is
    ///   then removed; also after an earlier expiry), `RiderError.untrustedAuthorizationResponse(_:)`
    ///   when the provider's answer fails its checks (its id_token; the session is then ended
    ///   as for an expiry, and the answer's tokens revoked), a network error (the session is
    ///   kept), `RiderError.storage(_:)`.
    public func refresh() async throws -> Session {
        try await refreshSingleFlight(rejecting: nil)
    }

    func refreshSingleFlight(rejecting rejectedAccessToken: String?) async throws -> Session {
        _ = try await standing()
        switch machine.refreshWanted(rejecting: rejectedAccessToken, at: clock.now) {
        case .use(let session): return session
        case .fail(let error): throw error
        case .join:
            guard let refreshing else { throw RiderError.sessionExpired }
            return try await refreshing.value
        case .start(let current, let generation):
            let task = Task {
                try await self.refresher.renew(current, in: self.signInContext,
                                               waiters: { await self.machine.refreshWaiters },
                                               step: { await self.refresh(of: generation, $0) },
                                               session: { try await self.session(from: $0, userID: nil, previous: current) })
            }
            refreshing = task
            let outcome = await task.result
            machine.refreshEnded(generation)
            if refreshing == task { refreshing = nil }
            return try outcome.get()
        }
    }

    private func refresh(of generation: Int, _ event: SessionMachine.RefreshEvent) -> SessionMachine.RefreshAction {
        machine.refresh(of: generation, event)  // the refresh's event to the machine, its action back
    }

    /// How many refresh calls this engine sent to the token endpoint (for diagnostics and tests).
    package var refreshCount: Int { machine.refreshesSent }
}

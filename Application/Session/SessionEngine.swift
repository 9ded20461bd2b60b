import Foundation
import RiderDomain

/// Owns the signed-in session: loads it from the vault once, hands out a valid access token,
/// and refreshes it — once, however many requests need it at the same moment.
///
/// Embedding programs see a narrow view of it (`RiderKit.sessions`): where the session stands
/// (``currentSession()``), every change (``states()``), where it is kept (``vaultLocation``),
/// renewing it now (``refresh()``) and signing out here (``end()``). Signing in and authorizing
/// requests go through the use cases and the request pipeline.
///
/// An actor because every request of the process shares the one session; the refresh runs in
/// a single task that all waiters join, so a one-time refresh token is never spent twice. Across
/// processes the `RefreshLock` does the same job. See `docs/session.md` for the state machine.
public actor SessionEngine {
    private let configuration: APIConfiguration
    /// Builds, sends and checks every token, revocation and userinfo request: the engine decides
    /// when, the service how.
    private let service: AuthorizationService
    private let vault: any TokenVault
    private let lock: any RefreshLock
    /// The clock every decision about expiry and backoff is made with.
    package nonisolated let clock: any Clock
    /// The API's base URL: the origin the session's access token is sent to, and no other.
    package nonisolated var apiBaseURL: URL { configuration.baseURL }

    /// Where the session stands, as one value: "loaded", "signed in" and "expired" can never
    /// disagree. See `docs/session.md` for the transitions.
    private enum Phase {
        /// The vault has not been read yet.
        case unloaded
        /// This session is in place.
        case signedIn(Session)
        /// This session expired for good (its refresh was rejected). Kept until the next sign-in
        /// or sign-out, and entered in the same step that ends the session, so "no session" never
        /// means "never signed in" for a moment after an expiry: a request starting then meets
        /// ``RiderError/sessionExpired`` like the one that found it, and a re-authentication
        /// takes them all along in its one question.
        case expired(Session)
        /// Nobody signed in, or they signed out.
        case signedOut
    }

    private var phase: Phase = .unloaded {
        didSet { usableLock.withLock { usable = session } }
    }
    /// The session in place, if any.
    private var session: Session? {
        if case .signedIn(let session) = phase { return session }
        return nil
    }
    /// `session` once loaded, readable without entering the actor: the common request — signed
    /// in, token not about to expire — takes its token from here instead of hopping onto the
    /// actor and back, where concurrent requests would queue one behind another. Every change of
    /// `phase` is mirrored here within the same actor step, under `usableLock` (Foundation's
    /// lock: the inner layers import nothing but Foundation).
    private nonisolated(unsafe) var usable: Session?
    private nonisolated let usableLock = NSLock()
    private var refreshInFlight: Task<Session, any Error>?
    /// Callers that joined the refresh in flight instead of starting one: an attribute of its span.
    private var refreshWaiters = 0
    private let tracer: any SpanTracer
    /// Bumped whenever the session is replaced or ended from outside a refresh, so a refresh that
    /// was under way at that moment cannot bring the old session back.
    private var generation = 0
    private var loopGuard = RefreshLoopGuard()
    private let metrics: any MetricsRecorder
    private var state: SessionState?
    private var observers: [UUID: AsyncStream<SessionState>.Continuation] = [:]

    /// Asked for credentials when the session has expired for good; `nil` lets
    /// ``RiderError/sessionExpired`` reach the caller.
    private var reauthentication: Reauthentication?
    /// The expired account's email, to prefill the question.
    private var emailOfAccount: @Sendable (UserID) async -> String? = { _ in nil }
    /// The question under way: one at a time, however many requests meet the expiry.
    private var asking: Task<Session, any Error>?
    /// Bumped in the same step as `asking` is cleared, after the question's session (if any) is
    /// established: a request can tell that a question ended since it was admitted.
    private var questionsEnded = 0

    /// How many refresh calls this engine sent to the token endpoint (for diagnostics and tests).
    package private(set) var refreshCount = 0
    /// How many times the re-authentication handler was called (for diagnostics and tests).
    package private(set) var handlerCalls = 0
    /// How far the server's clock is ahead of the device's (negative: behind), from the `Date`
    /// header of the last token response; 0 until one was seen.
    package private(set) var clockSkew: TimeInterval = 0

    /// - Parameters:
    ///   - configuration: the token and revoke endpoints, client credentials and refresh leeway.
    ///   - transport: the raw transport; the token endpoint is never sent a bearer token.
    ///   - vault: where the session is loaded from once and every renewed session is saved.
    ///   - clock: tells when the access token is about to expire.
    ///   - lock: shared with other processes using the same vault; ``InProcessRefreshLock`` when
    ///     the vault is not shared.
    ///   - metrics: told how each refresh ended.
    ///   - reauthentication: asked for credentials when the session has expired for good.
    ///   - emailOfAccount: the expired account's email, to prefill the question (the cache knows it).
    ///   - authorizationServer: where token and revocation requests go; the configuration's own
    ///     paths unless told (an issuer's discovered endpoints, for example).
    ///   - idTokenVerifier: checks id_tokens' signatures (OpenID Connect); without one they are
    ///     not read.
    package init(configuration: APIConfiguration, transport: any HTTPTransport, vault: any TokenVault,
                clock: any Clock, lock: any RefreshLock = InProcessRefreshLock(),
                metrics: any MetricsRecorder = NoMetrics(), reauthentication: Reauthentication? = nil,
                emailOfAccount: @escaping @Sendable (UserID) async -> String? = { _ in nil },
                authorizationServer: AuthorizationServer? = nil,
                idTokenVerifier: (any IDTokenSignatureVerifier)? = nil,
                tracer: any SpanTracer = NoSpanTracer()) {
        service = AuthorizationService(configuration: configuration,
                                       server: authorizationServer ?? AuthorizationServer(configuration: configuration),
                                       transport: transport, idTokenVerifier: idTokenVerifier, clock: clock)
        self.reauthentication = reauthentication
        self.emailOfAccount = emailOfAccount
        self.configuration = configuration
        self.tracer = tracer
        self.vault = tracer is NoSpanTracer ? vault : TracingTokenVault(base: vault, tracer: tracer)
        self.clock = clock
        self.lock = lock
        self.metrics = metrics
    }

    /// Where the session is kept (the vault's location).
    public nonisolated var vaultLocation: String { vault.location }

    // MARK: - Observing

    /// The session state now and every change after it, until the caller stops iterating.
    ///
    /// Loads the session from the vault first if nothing has yet; if the vault cannot be read,
    /// the stream starts with the first change instead.
    public func states() async -> AsyncStream<SessionState> {
        if case .unloaded = phase { _ = try? await currentSession() }
        let (stream, continuation) = AsyncStream.makeStream(of: SessionState.self,
                                                            bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        if let state { continuation.yield(state) }
        return stream
    }

    private func removeObserver(_ id: UUID) {
        observers[id] = nil
    }

    private func publish(_ newState: SessionState) {
        guard newState != state else { return }
        state = newState
        for observer in observers.values { observer.yield(newState) }
    }

    private func publishSession(_ session: Session?, orSignedOut reason: SessionState.SignOutReason) {
        if let session {
            publish(.signedIn(userID: session.userID, expiresAt: session.expiresAt))
        } else {
            publish(.signedOut(reason: reason))
        }
    }

    // MARK: - The session

    /// The stored session, without contacting the server.
    /// - Throws: `RiderError.storage(_:)` when the vault cannot be read.
    public func currentSession() async throws -> Session? {
        if case .unloaded = phase {
            let stored = try await vault.loadSession()
            // Another caller may have loaded or replaced it while we waited on the vault.
            if case .unloaded = phase {
                phase = stored.map(Phase.signedIn) ?? .signedOut
                publishSession(stored, orSignedOut: .noSession)
            }
        }
        return session
    }

    /// Signs in with an email and password (RFC 6749 §4.3, for servers that still offer it): the
    /// password goes to the token endpoint once and is kept nowhere.
    /// - Returns: the new session, already in the vault. When it cannot be stored, the tokens
    ///   just issued are revoked on the server before the error is thrown.
    /// - Throws: `RiderError.invalidInput(_:)` for an empty email or password,
    ///   `RiderError.invalidCredentials`, `RiderError.invalidConfiguration(_:)` when the provider
    ///   does not offer the password grant (nothing is sent), `RiderError.serverUnreachable(reason:)`,
    ///   `RiderError.malformedResponse(_:)`, `RiderError.storage(_:)`.
    package func signIn(with credentials: Credentials) async throws -> Session {
        var problems: [FieldProblem] = []
        let email = credentials.email.trimmingCharacters(in: .whitespacesAndNewlines)
        if email.isEmpty { problems.append(FieldProblem(field: "email", message: "is required")) }
        if credentials.password.isEmpty { problems.append(FieldProblem(field: "password", message: "is required")) }
        guard problems.isEmpty else { throw RiderError.invalidInput(problems) }

        if let refusal = try await service.server.passwordGrantRefusal() { throw refusal }
        var grant = try await granted(.password(Credentials(email: email, password: credentials.password)))
        // The email the server just accepted names the account in `rider session list`; an
        // id_token's or userinfo's identity, when the provider sent one, stands.
        grant.identity = grant.identity ?? AccountIdentity(email: email, name: nil, source: .credentials)
        return try await signIn(issuedBy: grant)
    }

    /// Asks the provider for a device sign-in (RFC 8628 §3.1): the code a person enters at its page.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when the provider offers no device sign-in,
    ///   `RiderError.malformedResponse(_:)` for an unusable answer, network errors.
    package func requestDeviceAuthorization() async throws -> DeviceAuthorization {
        try await service.requestDeviceAuthorization()
    }

    /// Polls the token endpoint once for `authorization`; on approval the session is signed in
    /// and stored, as a password sign-in's is.
    /// - Returns: the session once the person approved (`nil` before), and whether the provider
    ///   asked to poll less often.
    /// - Throws: `RiderError.authorizationDenied`, `RiderError.authorizationExpired`, network and
    ///   storage errors.
    package func pollDeviceSignIn(_ authorization: DeviceAuthorization) async throws -> (session: Session?, slowDown: Bool) {
        switch try await service.perform(.deviceCode(authorization), clockSkew: clockSkew) {
        case .pending: return (nil, false)
        case .slowDown: return (nil, true)
        case .granted(let grant): return (try await signIn(issuedBy: grant), false)
        }
    }

    /// Prepares a browser sign-in (RFC 6749 §4.1.1 with PKCE): the page to open, and the secrets
    /// its answer is checked against.
    /// - Parameters:
    ///   - redirectURI: the listening redirect endpoint.
    ///   - cryptography: the random generator and SHA-256.
    /// - Throws: `RiderError.invalidConfiguration(_:)` without a client id or an authorization
    ///   endpoint, or when the provider's metadata rules the flow out; what discovery throws.
    package func authorizeInBrowser(redirectURI: URL, cryptography: any SignInCryptography)
        async throws -> BrowserAuthorization {
        let provider = try await service.server.browserSignIn()
        guard let clientID = configuration.clientID, !clientID.isEmpty else {
            throw RiderError.invalidConfiguration("browser sign-in needs the client id the provider registered for "
                + "this program: set the client id (clientID)").suggesting(.setClientID)
        }
        return try BrowserAuthorization(endpoint: provider.endpoint, clientID: clientID, redirectURI: redirectURI,
                                        scope: configuration.scope, issuer: provider.issuer,
                                        issuerIsRequired: provider.issuerIsRequired, cryptography: cryptography)
    }

    /// Ends a browser sign-in: exchanges the code its answer brought, with the PKCE code verifier
    /// and the same redirect URI, and stores the session as every sign-in does.
    /// - Throws: `RiderError.authorizationFailed(_:description:)` when the provider refuses the
    ///   code, network and storage errors.
    package func signIn(withCode code: String, of authorization: BrowserAuthorization) async throws -> Session {
        try await signIn(issuedBy: try await granted(.authorizationCode(code, of: authorization)))
    }

    /// The tokens `request` was granted, its answer checked by the service.
    private func granted(_ request: TokenRequest) async throws -> TokenGrant {
        guard case .granted(let grant) = try await service.perform(request, clockSkew: clockSkew) else {
            throw RiderError.malformedResponse("the token endpoint asked to wait, which only a device sign-in may")
        }
        return grant
    }

    /// Signs in with tokens the token endpoint just issued and the service checked, whatever the
    /// grant. The account is the one the service found (the id_token's subject, the userinfo
    /// endpoint's), else the `user_id` the server named, else the API's current user.
    private func signIn(issuedBy grant: TokenGrant) async throws -> Session {
        try await signIn(with: grant) { provisional in
            // A standard OAuth server need not say whose token it is: ask the API.
            try await self.service.account(of: provisional)
        } revoke: { session in
            // The server issued tokens nobody can keep (for example the vault has no passphrase).
            await self.service.revokeUnkept(session)
        }
    }

    /// Signs in with the tokens a sign-in flow obtained: builds the session from `grant` (its
    /// expiry corrected for the server's clock, its account named by the grant or by `identify`),
    /// writes it to the vault and makes it the signed-in session. Every sign-in flow ends here,
    /// as every refresh ends in the same construction, so they cannot drift apart.
    /// - Parameters:
    ///   - grant: the token endpoint's answer.
    ///   - identify: asked for the account when the grant does not name it (a standard OAuth
    ///     server need not), with a provisional session to ask the API with.
    ///   - revoke: called with the session when it cannot be stored, so tokens nobody can keep
    ///     do not stay live on the server.
    /// - Returns: the session, already in the vault.
    /// - Throws: `RiderError.malformedResponse(_:)` for an unusable grant, what `identify`
    ///   throws, `RiderError.storage(_:)` (the previous session then stays in place).
    package func signIn(with grant: TokenGrant,
                        identify: @Sendable (Session) async throws -> (id: UserID, role: Role?),
                        revoke: @Sendable (Session) async -> Void) async throws -> Session {
        var session: Session
        if grant.userID != nil {
            session = try self.session(from: grant, userID: nil, previous: nil)
        } else {
            let provisional = try self.session(from: grant, userID: UserID(""), previous: nil)
            let account = try await identify(provisional)
            session = provisional
            session.userID = account.id
            if session.role == nil { session.role = account.role }
        }
        // Where its tokens may be revoked is fixed now, by the configuration it was issued with.
        session.revocationOrigin = await service.server.revocationOrigin()
        do {
            try await establish(session)
        } catch {
            await revoke(session)
            throw error
        }
        return session
    }

    /// Makes `newSession` the signed-in session, writing it to the vault first.
    /// - Throws: `RiderError.storage(_:)`; the previous session then stays in place.
    package func establish(_ newSession: Session) async throws {
        try await vault.saveSession(newSession)
        generation += 1
        phase = .signedIn(newSession)
        publishSession(newSession, orSignedOut: .noSession)
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
        // The new generation makes a refresh under way drop its result: it checks the generation
        // in the same step as it would put its session in place.
        generation += 1
        phase = .signedOut
        // Let it finish first all the same: it must not write its session after the removal.
        if let refreshInFlight { _ = try? await refreshInFlight.value }
        // A sign-in that completed while we waited is signed out too: the vault entry goes next,
        // and memory must not keep a session the vault no longer has.
        phase = .signedOut
        try await vault.removeSession()
        publish(.signedOut(reason: .loggedOut))
    }

    /// Forgets that the session expired, as a sign-out does: later requests are
    /// `RiderError.notSignedIn` and nobody is asked to sign in again. For a logout that finds
    /// no session because it had already expired.
    package func forgetExpiredSession() {
        guard case .expired = phase else { return }
        phase = .signedOut
        publish(.signedOut(reason: .loggedOut))
    }

    /// Where the session stands for a request about to be sent: lets it tell "no session because
    /// it expired" (wait for the re-authentication) from "no session at all" (``RiderError/notSignedIn``
    /// stands).
    /// - Throws: ``RiderError/storage(_:underlying:)`` when the vault cannot be read.
    func standing() async throws -> SessionStanding {
        _ = try await currentSession()
        switch phase {
        case .signedIn(let current): return .signedIn(current)
        case .expired(let ended): return .expired(ended)
        case .signedOut, .unloaded: return .signedOut
        }
    }

    /// A session whose access token is not known to expire within the leeway, refreshing first
    /// when it would.
    /// - Throws: `RiderError.notSignedIn` (nobody signed in, or signed out),
    ///   `RiderError.sessionExpired` (also for every call after the session expired, until
    ///   the next sign-in or sign-out), or a transient error when a needed refresh failed and the
    ///   old token has certainly expired.
    package nonisolated func validSession() async throws -> Session {
        if let current = usableLock.withLock({ usable }), !needsRefresh(current) { return current }
        return try await validSessionOnActor()
    }

    private func validSessionOnActor() async throws -> Session {
        guard let current = try await currentSession() else { throw noSessionError }
        guard needsRefresh(current) else { return current }
        do {
            return try await refreshSingleFlight(rejecting: nil)
        } catch let error as RiderError where error.isTransient && !current.isExpired(at: clock.now) {
            // Refreshing early failed, but the old token still works for a while.
            return current
        }
    }

    /// The session to retry with after the server rejected `rejectedAccessToken` with 401.
    ///
    /// If another request already replaced that token, returns the newer session at once instead
    /// of refreshing again.
    /// - Throws: as ``refresh()``, and `RiderError.server(status:detail:)` with status 401 when
    ///   the server has rejected too many freshly refreshed tokens in a row (a refresh loop).
    package func renew(afterRejecting rejectedAccessToken: String) async throws -> Session {
        try await refreshSingleFlight(rejecting: rejectedAccessToken)
    }

    /// Exchanges the refresh token for a new session now, even if the current one is still valid,
    /// joining a refresh already under way.
    /// - Returns: the renewed session, already stored.
    /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired` (the stored session is
    ///   then removed; also after an earlier expiry), `RiderError.untrustedAuthorizationResponse(_:)`
    ///   when the provider's answer fails its checks (its id_token; the session is then ended
    ///   as for an expiry, and the answer's tokens revoked), a network error (the session is
    ///   kept), `RiderError.storage(_:)`.
    public func refresh() async throws -> Session {
        try await refreshSingleFlight(rejecting: nil)
    }

    // MARK: - Signing in again

    /// Asks `reauthentication` from now on when the session has expired for good (tests build
    /// the engine first and decide this afterwards; RiderKit passes it to ``init``).
    package func reauthenticate(with reauthentication: Reauthentication?,
                                emailOfAccount: @escaping @Sendable (UserID) async -> String? = { _ in nil }) {
        self.reauthentication = reauthentication
        self.emailOfAccount = emailOfAccount
    }

    /// What a request was told when it was let through: how many questions had ended by then, so
    /// that it joins the outcome of a question that ended since instead of asking again.
    package struct Admission: Sendable {
        fileprivate let questionsEnded: Int
    }

    /// Call before sending an authorized request: returns at once unless the person is being
    /// asked, then waits for the answer or fails fast.
    /// - Returns: what ``sessionAfterExpiry(of:admission:)`` needs if the request meets an expiry.
    /// - Throws: ``RiderError/awaitingAuthorization`` with ``Reauthentication/WhileAsking/failFast``.
    package func admit() async throws -> Admission {
        // Taken before waiting: the question waited for counts as one that ended since.
        let admission = Admission(questionsEnded: questionsEnded)
        guard let asking, let reauthentication else { return admission }
        switch reauthentication.whileAsking {
        case .failFast: throw RiderError.awaitingAuthorization
        // Its failure belongs to the request that started it; this one just tries afterwards.
        case .wait: _ = try? await asking.value
        }
        return admission
    }

    /// The session to send a request again with, after it met the expiry of `failed`, the session
    /// it was made under (the one in place or the one already expired when it started).
    ///
    /// Every request that meets the same expiry gets the outcome of one question: the session
    /// already renewed, the question under way, or a new question if none ended since the request
    /// was admitted. The question runs on this actor, beside the refresh it follows, so where the
    /// session stands and whether someone is being asked are read in one step.
    /// - Throws: ``RiderError/sessionExpired`` without a ``Reauthentication``, when the person
    ///   declines, signs in as someone else, or a question since this request was admitted came to
    ///   nothing; ``RiderError/notSignedIn`` when they signed out meanwhile;
    ///   ``RiderError/invalidCredentials`` after the last attempt; ``RiderError/awaitingAuthorization``
    ///   (fail-fast, while someone else is being asked); what the handler or the sign-in throws.
    package func sessionAfterExpiry(of failed: Session, admission: Admission) async throws -> Session {
        guard let reauthentication else { throw RiderError.sessionExpired }
        let session = try await outcome(after: failed, admission: admission, reauthentication)
        // Another account's session must not carry on a request made for this one.
        guard session.userID == failed.userID else { throw RiderError.sessionExpired }
        return session
    }

    private func outcome(after failed: Session, admission: Admission,
                         _ reauthentication: Reauthentication) async throws -> Session {
        while true {
            let ended = questionsEnded
            let standing = try await standing()
            // A question ended while the vault was read: what it said may be stale.
            guard questionsEnded == ended else { continue }
            if case .signedIn(let current) = standing, current.accessToken != failed.accessToken {
                return current
            }
            if let asking {
                if reauthentication.whileAsking == .failFast { throw RiderError.awaitingAuthorization }
                return try await asking.value
            }
            // A sign-out is not an expiry: it stands.
            if case .signedOut = standing { throw RiderError.notSignedIn }
            // Asked since this request was admitted, and it came to nothing: do not ask again.
            guard questionsEnded == admission.questionsEnded else { throw RiderError.sessionExpired }
            let task = Task { try await self.ask(userID: failed.userID, reauthentication) }
            asking = task
            return try await task.value
        }
    }

    private func ask(userID: UserID, _ reauthentication: Reauthentication) async throws -> Session {
        // Runs on this actor, so the waiters see the question end in one step, after its session
        // (if any) is established.
        defer {
            asking = nil
            questionsEnded += 1
        }
        let email = await emailOfAccount(userID)
        for attempt in 1...reauthentication.maximumAttempts {
            handlerCalls += 1
            let request = Reauthentication.Request(userID: userID, email: email, attempt: attempt)
            guard let credentials = try await reauthentication.handler(request) else { throw RiderError.sessionExpired }
            do {
                return try await signIn(with: credentials)
            } catch RiderError.Code.invalidCredentials where attempt < reauthentication.maximumAttempts {
                continue
            }
        }
        throw RiderError.invalidCredentials
    }

    // MARK: - Refreshing

    private func refreshSingleFlight(rejecting rejectedAccessToken: String?) async throws -> Session {
        if let refreshInFlight { return try await joining(refreshInFlight) }
        guard let current = try await currentSession() else {
            // A request that was sent with a token had a session a moment ago: it ended meanwhile.
            throw rejectedAccessToken == nil ? noSessionError : RiderError.sessionExpired
        }
        // Re-check after the await above: another caller may have started or finished a refresh.
        if let refreshInFlight { return try await joining(refreshInFlight) }
        if let rejectedAccessToken, current.accessToken != rejectedAccessToken { return current }
        if rejectedAccessToken != nil, !loopGuard.admit(at: clock.now) {
            throw RiderError.server(status: 401, detail: "the server keeps rejecting freshly refreshed tokens; "
                + "RiderKit stopped refreshing for \(Int(loopGuard.window)) s")
        }

        let startedIn = generation
        publish(.refreshing(userID: current.userID))
        refreshWaiters = 0
        let task = Task { try await self.tracedRefresh(current, generation: startedIn) }
        refreshInFlight = task
        defer { refreshInFlight = nil }
        do {
            let renewed = try await task.value
            publishSession(renewed, orSignedOut: .noSession)
            return renewed
        } catch RiderError.Code.sessionExpired {
            if generation == startedIn { publish(.signedOut(reason: .sessionExpired)) }
            throw RiderError.sessionExpired
        } catch let error as RiderError where error.code == .untrustedAuthorizationResponse {
            // A refused refresh answer ended the session (performRefresh), as a rejection does.
            if generation == startedIn { publish(.signedOut(reason: .sessionExpired)) }
            throw error
        } catch {
            // Transient: the session is kept and the next call tries again.
            publishSession(session, orSignedOut: .sessionExpired)
            throw error
        }
    }

    /// Waits for the refresh another caller started.
    private func joining(_ refresh: Task<Session, any Error>) async throws -> Session {
        refreshWaiters += 1
        return try await refresh.value
    }

    /// The refresh in a span of its own (`rider.session.refresh`), a child of the request that
    /// started it, with how many other callers waited for it.
    private func tracedRefresh(_ current: Session, generation startedIn: Int) async throws -> Session {
        try await tracer.withSpan("rider.session.refresh", kind: .internal) { @Sendable span in
            do {
                let renewed = try await self.refreshHoldingLock(current, generation: startedIn)
                span.setAttribute("rider.refresh.waiters", .int(await self.refreshWaiters))
                return renewed
            } catch {
                span.setAttribute("rider.refresh.waiters", .int(await self.refreshWaiters))
                throw error
            }
        }
    }

    private func refreshHoldingLock(_ current: Session, generation startedIn: Int) async throws -> Session {
        try await lock.withLock {
            try await self.refreshUnderLock(current, generation: startedIn)
        }
    }

    private func refreshUnderLock(_ current: Session, generation startedIn: Int) async throws -> Session {
        // Another process may have refreshed, or signed out, while we waited for the lock.
        let stored = try await vault.loadSession()
        guard generation == startedIn else { throw RiderError.sessionExpired }
        guard let stored, stored.userID == current.userID else {
            // Nothing to remove: the vault already holds no session of this user.
            endByExpiry(current)
            throw RiderError.sessionExpired
        }
        if stored.accessToken != current.accessToken, stored.issuedAt >= current.issuedAt {
            phase = .signedIn(stored)
            return stored
        }
        return try await performRefresh(of: current, generation: startedIn)
    }

    private func performRefresh(of current: Session, generation startedIn: Int) async throws -> Session {
        guard let refreshToken = current.refreshToken else {
            await expire(current, generation: startedIn)
            throw RiderError.sessionExpired
        }
        refreshCount += 1
        let grant: TokenGrant
        do {
            // The service checks the answer: the same account, its id_token as at sign-in.
            grant = try await granted(.refresh(current, with: refreshToken))
        } catch RiderError.Code.sessionExpired {
            metrics.record(.refresh(.rejected))
            await expire(current, generation: startedIn)
            throw RiderError.sessionExpired
        } catch let refused as RefusedRefreshAnswer {
            // Terminal as a rejection is: the refresh token sent is spent, and keeping it would
            // send it again (a provider's reuse detection ends every session of the grant); the
            // answer's tokens are not to be trusted. The service revoked them.
            metrics.record(.refresh(.rejected))
            await expire(current, generation: startedIn)
            throw refused.error
        } catch {
            metrics.record(.refresh(.failed))
            throw error
        }
        metrics.record(.refresh(.renewed))
        // Signed out or signed in anew while the refresh was under way: that decision stands.
        guard generation == startedIn else { throw RiderError.sessionExpired }
        let renewed = try session(from: grant, userID: nil, previous: current)
        // The old refresh token is spent on the server now: keep the new one in memory whatever
        // happens, and persist it before any waiter proceeds (a failed write is thrown to them).
        phase = .signedIn(renewed)
        do {
            try await vault.saveSession(renewed)
        } catch {
            // Still under the refresh lock: no other process refreshes with the retired token
            // until this verdict is out. Saying what happened is all that is left to do.
            throw RiderError.storage("the server renewed the session, but it could not be saved (\(Self.describe(error))). "
                + "It is kept only in memory, for as long as this program runs; after that, sign in again. To avoid this, fix the vault "
                + "or choose one that works (the automatic or encrypted-file vault setting)",
                underlying: error)
        }
        return renewed
    }

    /// Ends `current` because it expired for good: removes the vault entry, then forgets it.
    ///
    /// The entry goes first, while `current` is still held and this refresh is still in flight:
    /// a request meanwhile sends the dead token, gets 401 and joins this refresh, so it learns of
    /// the expiry from here. Only once the entry is gone does anyone learn of it — and only then
    /// can a re-authentication start, so this removal cannot delete the session it establishes.
    private func expire(_ current: Session, generation startedIn: Int) async {
        guard generation == startedIn else { return }
        do {
            try await vault.removeSession()
        } catch {
            // The session is unusable either way; the caller learns it expired, which is the
            // actionable part. A stale vault entry will be rejected again next time.
        }
        // Signed out or signed in anew during the removal: that decision stands.
        guard generation == startedIn else { return }
        endByExpiry(current)
    }

    /// Clears the session and records that it expired, in one step (see `expired`).
    private func endByExpiry(_ current: Session) {
        phase = .expired(current)
    }

    /// A vault failure in words, without the "Local storage failed" wrapper it may already have.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? RiderError, error.code == .storage, let what = error.detail { return what }
        return (error as? any LocalizedError)?.errorDescription ?? "\(type(of: error))"
    }

    /// What a call needing a session throws when there is none.
    private var noSessionError: RiderError {
        if case .expired = phase { return .sessionExpired }
        return .notSignedIn
    }

    /// Whether `session` must be refreshed before use: it can be, and its token expires within
    /// the leeway.
    private nonisolated func needsRefresh(_ session: Session) -> Bool {
        session.refreshToken != nil && session.isExpired(at: clock.now, leeway: leeway(for: session))
    }

    private nonisolated func leeway(for session: Session) -> TimeInterval {
        guard let expiresAt = session.expiresAt else { return 0 }
        let lifetime = expiresAt.timeIntervalSince(session.issuedAt)
        return max(0, min(configuration.refreshLeeway, lifetime / 2))
    }
}

/// Where the session stands, for deciding what a request that meets an expiry should do
/// (see ``SessionEngine/standing()``).
enum SessionStanding: Sendable {
    /// This session is in place.
    case signedIn(Session)
    /// This session expired for good and nobody has signed in or out since.
    case expired(Session)
    /// Nobody signed in, or they signed out.
    case signedOut

    /// The session in place or the one that expired; `nil` when signed out.
    var session: Session? {
        switch self {
        case .signedIn(let session), .expired(let session): session
        case .signedOut: nil
        }
    }
}

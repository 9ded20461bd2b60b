import Foundation
import RiderApplication
import RiderDomain
import RiderKit
import Testing

extension RiderKit {
    /// RiderKit for a program's own tests: every use case, with nothing leaving the process — no
    /// network, no keyring, no disk.
    ///
    /// ```swift
    /// let server = StubTransport.successful()
    /// server.stub(.post, "/auth/token", with: .tokenError("invalid_grant"))   // a wrong password
    /// let rider = try RiderKit.testing(transport: server)
    /// await #expect(throws: RiderError.invalidCredentials) { try await rider.login(Fixtures.credentials) }
    /// ```
    ///
    /// - Parameters:
    ///   - transport: answers every request; ``StubTransport/successful(api:sourceLocation:)`` for
    ///     `api` unless told. Keep your own reference to script it and read the requests it got.
    ///   - vault: where the session is kept; an empty `InMemoryTokenVault` (signed out) unless
    ///     told. Pass `InMemoryTokenVault(session: Fixtures.session())` to start signed in, or a
    ///     ``SpyTokenVault`` to count saves and make them fail.
    ///   - cache: the user cache; an empty `InMemoryUserCache` unless told.
    ///   - clock: the time; a ``ManualClock`` at ``Fixtures/epoch`` unless told, so tokens expire
    ///     only when the test moves it. The session is renewed exactly when its token enters the
    ///     refresh leeway (no per-instance jitter), beside the request that finds it there:
    ///     `close()` waits for that renewal.
    ///   - api: the API configuration; ``Fixtures/configuration(baseURL:clientID:clientSecret:clientAuthentication:refreshLeeway:)``
    ///     (`https://api.example.test`) unless told.
    ///   - cacheSettings: time to live and stale window of cached users.
    ///   - reauthentication: what to do when the session has expired for good; `nil` lets
    ///     ``RiderError/sessionExpired`` reach the caller.
    ///   - sourceLocation: where the default transport reports unexpected requests.
    /// - Returns: the wired RiderKit.
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` only if the default configuration cannot be built.
    public static func testing(
        transport: (any HTTPTransport)? = nil,
        vault: any TokenVault = InMemoryTokenVault(),
        cache: any UserCache = InMemoryUserCache(),
        clock: any Clock = ManualClock(),
        api: APIConfiguration? = nil,
        cacheSettings: CacheSettings = CacheSettings(),
        reauthentication: Reauthentication? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RiderKit {
        let api = try api ?? Fixtures.configuration()
        let transport = transport ?? StubTransport.successful(api: api, sourceLocation: sourceLocation)
        // No jitter: the session is renewed exactly when its token enters the leeway, so a test
        // can move the clock there.
        return RiderKit(api: api, transport: transport, vault: vault, cache: cache, clock: clock, lock: nil,
                        cacheSettings: cacheSettings, clearsCacheOnLogout: true, identity: RequestIdentity(),
                        sportCatalogue: nil, reauthentication: reauthentication, metrics: NoMetrics(),
                        avatarUpload: UploadAvatar.Configuration(), userAgent: LoopbackBrowserUserAgent(),
                        refreshJitter: 0)
    }
}

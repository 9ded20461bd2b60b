public import Logging

/// Settings for one ``ReferenceServer`` instance.
///
/// The defaults suit tests: an ephemeral loopback port, a thousand deterministic users and
/// short-lived access tokens, so clients exercise their refresh path.
public struct ReferenceServerConfiguration: Sendable {
    /// Address to bind. The server prints credentials and is meant for loopback only.
    public var host: String
    /// TCP port; `0` asks the kernel for a free one (see ``RunningReferenceServer/baseURL``).
    public var port: Int
    /// How many users to generate besides the demo account (`u_000001` … ).
    /// At most 999,999, so that ids keep their six digits.
    public var seedUsers: Int
    /// Seed of the generator that picks names, roles and profiles; equal seeds give equal data.
    public var seed: UInt64
    /// Lifetime of an access token.
    public var accessTokenTTL: Duration
    /// Lifetime of a refresh token.
    public var refreshTokenTTL: Duration
    /// Email of the demo account `u_000000`.
    public var demoEmail: String
    /// Password of the demo account.
    public var demoPassword: String
    /// Display name of the demo account.
    public var demoDisplayName: String
    /// Characters used for opaque tokens.
    package var tokenAlphabet: TokenAlphabet
    /// Largest accepted request body; larger bodies get `413`.
    public var maximumBodySize: Int
    /// Largest accepted avatar picture (`POST /riders/me/avatar`); larger ones get `413`.
    public var maximumAvatarSize: Int
    /// Stops the server on SIGINT and SIGTERM; meant for the executable, not for tests.
    package var stopsOnTerminationSignals: Bool
    /// Logger for startup and per-request lines. `nil` logs to standard error, see ``verboseLogging``.
    public var logger: Logger?
    /// With the default logger, also log one line per request (method, path, status); otherwise
    /// only warnings and errors. Ignored when ``logger`` is set.
    public var verboseLogging: Bool
    /// Issue access tokens as JWTs carrying `exp` (the signature part is random: nothing checks
    /// it) and leave `expires_in` out of token responses, like OAuth servers that state the
    /// expiry only inside the token. Off by default.
    package var jwtAccessTokens: Bool
    /// Serve the `/_test/*` hooks (counters, forced expiry, an open redirect, a header echo).
    /// Off by default: they need no token, so only tests and benchmarks turn them on. While on,
    /// the server answers only requests whose `Host` is a loopback name or literal, and `421`
    /// to any other, so a web page cannot reach them through DNS rebinding.
    package var enableTestHooks: Bool
    /// When `/auth/token` stops checking passwords for a while; see ``LoginThrottle``.
    package var loginThrottle: LoginThrottle
    /// The most tokens the server keeps (access, refresh and rotated refresh tokens together).
    /// Expired and revoked tokens are dropped first; past this many, the oldest go, and a
    /// client holding one of them has to log in again.
    package var maximumStoredTokens: Int
    /// How long a device code and its user code (RFC 8628) can be approved and redeemed:
    /// `expires_in` of `POST /oauth2/device_authorization`, in whole seconds.
    public var deviceCodeLifetime: Duration
    /// How long a device must wait between polls of the token endpoint (RFC 8628 `interval`),
    /// in whole seconds; polling sooner answers `slow_down` and adds 5 s for that code.
    public var devicePollInterval: Duration
    /// Whether the token endpoint takes the resource owner password grant. Off, the server is
    /// what RFC 9700 asks of providers: its metadata leaves the grant out and the token endpoint
    /// answers `unsupported_grant_type`, so clients sign in with a device code.
    public var passwordGrant: Bool
    /// Whether the server takes DPoP proofs (RFC 9449) and binds tokens to their keys, and
    /// whether it requires them at the token endpoint; see ``DPoPMode``. Off by default.
    package var dpop: DPoPMode
    /// With DPoP on, demand a server nonce in every proof (RFC 9449 §8, §9): a proof without the
    /// current one (or the one before, rotated every five minutes) is answered `use_dpop_nonce`
    /// — `400` at the token endpoint, `401` with a `DPoP` challenge at the API — and every
    /// response carries the current nonce in `DPoP-Nonce`. Off by default.
    package var dpopNonces: Bool
    /// Whether the server takes pushed authorization requests (RFC 9126) at `/oauth2/par`, and
    /// whether its authorization endpoint takes only those; see ``PushedAuthorizationMode``. Off
    /// by default.
    package var pushedAuthorization: PushedAuthorizationMode
    /// The public key (PEM: P-256 or RSA) of ``KeyOAuthClient``, which then authenticates with
    /// `private_key_jwt` assertions (RFC 7523) wherever a client authenticates; `nil` (the
    /// default): no such client.
    package var clientPublicKeyPEM: String?
    /// With DPoP on (``DPoPMode/supported``), the clients that must prove a key anyway: a token
    /// request naming or authenticating one of them without a proof is refused
    /// (`invalid_dpop_proof`), while other clients may still get bearer tokens. Empty by default.
    package var dpopRequiredClients: Set<String> = []
    /// Whether `/oauth2/register` takes dynamic client registrations (RFC 7591) from public
    /// native clients; see ``ClientRegistrationMode``. Open by default.
    package var clientRegistration: ClientRegistrationMode = .open
    /// The most clients `/oauth2/register` registers while the server runs; past it a registration
    /// is refused (`429`). 1000 by default.
    package var registrationLimit: Int = 1000
    /// Send the metadata documents (the authorization server's at both well-known paths and the
    /// protected resources') with `Cache-Control: no-store` instead of an hour's `max-age`, as
    /// some providers do: a client then may keep none of them, and a test can count how often
    /// one command asks (``ReferenceStore/Stats/metadataRequests``). Off by default.
    package var metadataNoStore = false

    /// Creates a configuration; every parameter has a test-friendly default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        seedUsers: Int = 1000,
        seed: UInt64 = 42,
        accessTokenTTL: Duration = .seconds(60),
        refreshTokenTTL: Duration = .seconds(30 * 24 * 60 * 60),
        demoEmail: String = "demo@example.com",
        demoPassword: String = "rider-demo",
        demoDisplayName: String = "Demo Rider",
        maximumBodySize: Int = 64 * 1024,
        maximumAvatarSize: Int = 5 * 1024 * 1024,
        logger: Logger? = nil,
        verboseLogging: Bool = false,
        deviceCodeLifetime: Duration = .seconds(600),
        devicePollInterval: Duration = .seconds(5),
        passwordGrant: Bool = true
    ) {
        self.init(host: host, port: port, seedUsers: seedUsers, seed: seed, accessTokenTTL: accessTokenTTL,
                  refreshTokenTTL: refreshTokenTTL, demoEmail: demoEmail, demoPassword: demoPassword,
                  demoDisplayName: demoDisplayName, tokenAlphabet: .base64URL, maximumBodySize: maximumBodySize,
                  maximumAvatarSize: maximumAvatarSize, logger: logger, verboseLogging: verboseLogging,
                  deviceCodeLifetime: deviceCodeLifetime, devicePollInterval: devicePollInterval,
                  passwordGrant: passwordGrant)
    }

    /// Creates a configuration with the switches of RiderKit's own tests and of `rider-server`
    /// (token spelling, DPoP, pushed requests, a key client, test hooks): package, since a
    /// program embedding the server needs none of them.
    package init(
        host: String = "127.0.0.1",
        port: Int = 0,
        seedUsers: Int = 1000,
        seed: UInt64 = 42,
        accessTokenTTL: Duration = .seconds(60),
        refreshTokenTTL: Duration = .seconds(30 * 24 * 60 * 60),
        demoEmail: String = "demo@example.com",
        demoPassword: String = "rider-demo",
        demoDisplayName: String = "Demo Rider",
        tokenAlphabet: TokenAlphabet = .base64URL,
        maximumBodySize: Int = 64 * 1024,
        maximumAvatarSize: Int = 5 * 1024 * 1024,
        stopsOnTerminationSignals: Bool = false,
        logger: Logger? = nil,
        verboseLogging: Bool = false,
        jwtAccessTokens: Bool = false,
        enableTestHooks: Bool = false,
        loginThrottle: LoginThrottle = LoginThrottle(),
        maximumStoredTokens: Int = 100_000,
        deviceCodeLifetime: Duration = .seconds(600),
        devicePollInterval: Duration = .seconds(5),
        passwordGrant: Bool = true,
        dpop: DPoPMode = .off,
        dpopNonces: Bool = false,
        pushedAuthorization: PushedAuthorizationMode = .off,
        clientPublicKeyPEM: String? = nil
    ) {
        self.clientPublicKeyPEM = clientPublicKeyPEM
        self.pushedAuthorization = pushedAuthorization
        self.dpopNonces = dpopNonces
        self.passwordGrant = passwordGrant
        self.dpop = dpop
        self.host = host
        self.port = port
        self.seedUsers = seedUsers
        self.seed = seed
        self.accessTokenTTL = accessTokenTTL
        self.refreshTokenTTL = refreshTokenTTL
        self.demoEmail = demoEmail
        self.demoPassword = demoPassword
        self.demoDisplayName = demoDisplayName
        self.tokenAlphabet = tokenAlphabet
        self.maximumBodySize = maximumBodySize
        self.maximumAvatarSize = maximumAvatarSize
        self.stopsOnTerminationSignals = stopsOnTerminationSignals
        self.logger = logger
        self.verboseLogging = verboseLogging
        self.jwtAccessTokens = jwtAccessTokens
        self.enableTestHooks = enableTestHooks
        self.loginThrottle = loginThrottle
        self.maximumStoredTokens = maximumStoredTokens
        self.deviceCodeLifetime = deviceCodeLifetime
        self.devicePollInterval = devicePollInterval
    }

    /// Whether `host` names a loopback address (`localhost`, `127.0.0.0/8` or `::1`).
    package var isLoopbackHost: Bool {
        let host = self.host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Checks the values that would otherwise fail later in confusing ways.
    func validate() throws(ReferenceServerError) {
        guard (0...65_535).contains(port) else {
            throw .invalidConfiguration("port must be between 0 and 65535, not \(port)")
        }
        guard (0...999_999).contains(seedUsers) else {
            throw .invalidConfiguration("seed users must be between 0 and 999999, not \(seedUsers)")
        }
        guard accessTokenTTL >= .zero, refreshTokenTTL > .zero else {
            throw .invalidConfiguration("token lifetimes must be positive")
        }
        guard EmailRule.looksLikeAddress(demoEmail), demoPassword.count >= 8 else {
            throw .invalidConfiguration("the demo account needs an email address and a password of at least 8 characters")
        }
        guard maximumBodySize >= 1024 else {
            throw .invalidConfiguration("the maximum body size must be at least 1024 bytes")
        }
        guard maximumAvatarSize >= 1024 else {
            throw .invalidConfiguration("the maximum avatar size must be at least 1024 bytes")
        }
        guard loginThrottle.failuresPerEmail >= 1, loginThrottle.failuresPerClient >= 1,
              loginThrottle.window > .zero else {
            throw .invalidConfiguration("the login throttle needs at least 1 failure per email and per client, and a positive window")
        }
        guard maximumStoredTokens >= 16 else {
            throw .invalidConfiguration("the server must keep at least 16 tokens")
        }
        // Both go out as whole seconds, so less than one would read as zero.
        guard deviceCodeLifetime >= .seconds(1), devicePollInterval >= .seconds(1) else {
            throw .invalidConfiguration("the device code lifetime and poll interval must be at least 1 second")
        }
        guard registrationLimit >= 1 else {
            throw .invalidConfiguration("the registration limit must be at least 1 (turn registration off instead)")
        }
    }
}

import Foundation
import Logging
import RiderApplication
import RiderDomain
import RiderInfrastructure

extension RiderKit {
    /// Everything ``RiderKit/live(configuration:)`` needs: the API, where to keep the session and
    /// the cache, and how requests go out.
    public struct Configuration: Sendable {
        public var api: APIConfiguration
        public var vault: VaultChoice
        /// The XDG folders the default files go in (`$XDG_STATE_HOME/rider/…`, `$XDG_CACHE_HOME/rider/…`):
        /// read from the environment ``load(environment:baseURL:issuer:)`` is given, or this
        /// process's. Point a program's files elsewhere with ``vault`` and ``cache``, or with
        /// `XDG_STATE_HOME`, `XDG_CACHE_HOME` and `XDG_CONFIG_HOME` in that environment.
        package var directories: XDGDirectories
        /// Where the encrypted file's passphrase comes from (never argv).
        public var vaultPassphrase: VaultPassphrase
        /// How long a keyring call may take before ``VaultChoice/automatic`` falls back (2 s).
        public var keyringTimeout: Duration
        /// How long the encrypted file stays unlocked after its passphrase is typed:
        /// `VaultUnlockRetention.process` unless set; ``load(environment:baseURL:issuer:)`` keeps
        /// it 15 minutes in the kernel keyring (`RIDER_VAULT_UNLOCK_TIMEOUT`), so each command of a
        /// CLI does not ask again.
        public var vaultUnlockRetention: VaultUnlockRetention = .process
        /// Request logging (method, path, status, time; never secrets) and the vault choice.
        /// `nil` logs nothing.
        public var logger: Logger?
        /// Where and how users are cached.
        public var cache: CacheConfiguration
        /// Warnings a person should see (for example a damaged cache file moved aside). `nil`
        /// logs nothing.
        public var warnings: Logger?
        /// How requests introduce themselves: set `RequestIdentity.program` to name your
        /// program in the `User-Agent`; ``load(environment:baseURL:issuer:)`` fills the languages from
        /// `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` or `LANG`.
        public var identity: RequestIdentity
        /// What to do when the session has expired for good (ask the person to sign in again);
        /// `nil` (the default) lets `RiderError.sessionExpired` reach the caller.
        public var reauthentication: Reauthentication?
        /// The transport requests go out with; `nil` (the default) is an
        /// `AsyncHTTPClientTransport` with ``proxies`` and the API's timeout. Pass a
        /// `URLSessionTransport` (product `RiderURLSession`) to send with Foundation instead.
        public var transport: (any HTTPTransport)?
        /// The proxies requests go through; by default read from this process's environment as
        /// curl reads them (`https_proxy`, `http_proxy`, `all_proxy`, `no_proxy`).
        public var proxies: ProxyEnvironment
        /// Where request, retry, refresh and cache-lookup counts go (for example a
        /// `SwiftMetricsRecorder`); `nil` counts nothing.
        public var metrics: (any MetricsRecorder)?
        /// Record every HTTP exchange into a folder, or answer from one instead of the network;
        /// `nil` (the default) does neither.
        public var recording: HTTPRecording?
        /// The OAuth provider whose metadata names the token and revocation endpoints (OpenID
        /// Connect Discovery, else RFC 8414), read on first need and kept on disk; `nil` (the
        /// default) uses ``api``'s paths and asks no provider.
        public var discovery: ProviderDiscovery.Configuration?
        /// Endpoints set by hand: each wins over the one discovery finds, and serves servers
        /// without discovery. With ``discovery``, set `token` or `revocation` here (not only in
        /// ``api``) for them to win.
        public var endpoints: ProviderEndpoints
        /// The PEM file holding the client's private key (P-256 or RSA), for `private_key_jwt`
        /// client authentication (`APIConfiguration.ClientAuthentication.privateKeyJWT`): read
        /// for each assertion, and refused unless only its owner can read it, in folders only
        /// its owner can change. `nil` (the default): no client key.
        public var clientKeyFile: URL?
        /// Presents the provider's sign-in page and receives its redirect: the system browser and
        /// `127.0.0.1` on a port the system picks unless told (`LoopbackBrowserUserAgent`); a
        /// program with a window may use its own web view.
        public var userAgent: any ExternalUserAgent = LoopbackBrowserUserAgent()
        /// Where spans go: swift-distributed-tracing's bootstrapped (or task-bound) tracer unless
        /// told, a no-op when none is bound; `NoSpanTracer()` turns tracing off entirely. A program
        /// chooses its tracer by bootstrapping swift-distributed-tracing, not here.
        package var tracer: any SpanTracer = SwiftDistributedTracingTracer()
        /// The account the `RiderKit` speaks for, by email or id (`RIDER_ACCOUNT`, the CLI's
        /// `--account`); `nil` (the default) follows the server's active account. Two `RiderKit`s
        /// with two accounts use both at once.
        public var account: String?
        /// Whether ``api`` is a rider API of its own, as opposed to the issuer standing in for
        /// a base URL nobody set: only then is there a `GET /auth/me` to ask who is signed in.
        package var hasRiderAPI = true
        /// The loopback addresses a browser sign-in listens on, tried in order (`listen`: a
        /// provider that registered a fixed redirect port); empty: any free port.
        package var listenAddresses: [LoopbackListenAddress] = []
        /// The https URL of this program's client id metadata document, used as its client id by
        /// an authorization server that takes one (`client_id_metadata_document_supported`) when
        /// no client id is configured; `nil` (the default): none.
        package var clientIDMetadataURL: URL?
        /// The first, unauthenticated request that learns who signs in to ``APIConfiguration/resource``
        /// (RFC 9728): a `GET` unless told; an MCP client asks with an `initialize` request.
        package var resourceProbe: ProtectedResourceDiscovery.Probe = .get
        /// An access token to use as it is (`RIDER_TOKEN` in `rider`): when set,
        /// ``RiderKit/live(configuration:)`` sends it with every authorized request, never renews
        /// it, and keeps nothing — no vault, no cache file. `nil` (the default) uses the vault.
        package var accessToken: GivenAccessToken?

        public init(api: APIConfiguration, vault: VaultChoice = .automatic,
                    vaultPassphrase: VaultPassphrase = .unavailable, keyringTimeout: Duration = .seconds(2),
                    logger: Logger? = nil, cache: CacheConfiguration = CacheConfiguration(), warnings: Logger? = nil,
                    identity: RequestIdentity = RequestIdentity(), reauthentication: Reauthentication? = nil,
                    transport: (any HTTPTransport)? = nil,
                    proxies: ProxyEnvironment = ProxyEnvironment(environment: ProcessInfo.processInfo.environment),
                    metrics: (any MetricsRecorder)? = nil, recording: HTTPRecording? = nil,
                    discovery: ProviderDiscovery.Configuration? = nil, endpoints: ProviderEndpoints = ProviderEndpoints()) {
            self.init(api: api, vault: vault, directories: XDGDirectories(), vaultPassphrase: vaultPassphrase,
                      keyringTimeout: keyringTimeout, logger: logger, cache: cache, warnings: warnings, identity: identity,
                      reauthentication: reauthentication, transport: transport, proxies: proxies, metrics: metrics,
                      recording: recording, discovery: discovery, endpoints: endpoints)
        }

        /// The same, with the XDG folders given (tests and the CLI keep their files in a folder
        /// of their own).
        package init(api: APIConfiguration, vault: VaultChoice = .automatic,
                     directories: XDGDirectories,
                     vaultPassphrase: VaultPassphrase = .unavailable, keyringTimeout: Duration = .seconds(2),
                     logger: Logger? = nil, cache: CacheConfiguration = CacheConfiguration(), warnings: Logger? = nil,
                     identity: RequestIdentity = RequestIdentity(), reauthentication: Reauthentication? = nil,
                     transport: (any HTTPTransport)? = nil,
                     proxies: ProxyEnvironment = ProxyEnvironment(environment: ProcessInfo.processInfo.environment),
                     metrics: (any MetricsRecorder)? = nil, recording: HTTPRecording? = nil,
                     discovery: ProviderDiscovery.Configuration? = nil, endpoints: ProviderEndpoints = ProviderEndpoints()) {
            self.api = api
            self.vault = vault
            self.directories = directories
            self.vaultPassphrase = vaultPassphrase
            self.keyringTimeout = keyringTimeout
            self.logger = logger
            self.cache = cache
            self.warnings = warnings
            self.identity = identity
            self.reauthentication = reauthentication
            self.transport = transport
            self.proxies = proxies
            self.metrics = metrics
            self.recording = recording
            self.discovery = discovery
            self.endpoints = endpoints
        }

        /// Reads the configuration from the config file and the environment; the environment wins.
        ///
        /// The file is `$RIDER_CONFIG`, or `$XDG_CONFIG_HOME/rider/config.json` when that exists.
        /// Environment variables: `RIDER_BASE_URL`, `RIDER_TOKEN_PATH`, `RIDER_ME_PATH`,
        /// `RIDER_REVOKE_PATH`, `RIDER_CLIENT_ID`, `RIDER_CLIENT_SECRET`, `RIDER_CLIENT_AUTH`
        /// (`basic` or `body`), `RIDER_SCOPE`, `RIDER_TIMEOUT` (seconds), `RIDER_VAULT`
        /// (`automatic`, `secret-service`, `encrypted-file`, `file:/path`, `memory`),
        /// `RIDER_KEYRING_TIMEOUT` (seconds), `RIDER_VAULT_UNLOCK_TIMEOUT` (seconds the encrypted
        /// file stays unlocked in the kernel keyring, 900 unless set, 0 for never), for the encrypted file's passphrase
        /// `RIDER_VAULT_PASSPHRASE` or `RIDER_VAULT_PASSPHRASE_FILE` (environment only),
        /// `RIDER_ACCOUNT` (the account, by email or id; the active one when unset),
        /// `RIDER_CACHE` (`sqlite`, `sqlite:/path`, `memory`), `RIDER_CACHE_TTL` (seconds),
        /// `RIDER_CACHE_MAX_USERS`, `RIDER_CACHE_KEEP_ON_LOGOUT`; proxies from `https_proxy`,
        /// `http_proxy`, `all_proxy` and `no_proxy`.
        ///
        /// With `RIDER_ISSUER` (`issuer`), the token and revocation endpoints come from the
        /// provider's metadata unless `RIDER_TOKEN_PATH` or `RIDER_REVOKE_PATH` are set, and the
        /// base URL defaults to the issuer. `RIDER_AUTHORIZATION_ENDPOINT`,
        /// `RIDER_DEVICE_AUTHORIZATION_ENDPOINT`, `RIDER_USERINFO_ENDPOINT` and `RIDER_JWKS_URI`
        /// set the other endpoints by hand (each wins over discovery).
        ///
        /// - Parameters:
        ///   - environment: the variables to read; the process's own unless told.
        ///   - overrideURL: the base URL, overriding both (the CLI's `--server`).
        ///   - overrideIssuer: the issuer, overriding both (the CLI's `--issuer`).
        /// - Throws: `RiderError.invalidConfiguration(_:)` naming the setting or file at fault.
        public static func load(
            environment: [String: String] = ProcessInfo.processInfo.environment,
            baseURL overrideURL: String? = nil,
            issuer overrideIssuer: String? = nil
        ) throws -> Configuration {
            let directories = XDGDirectories(environment: environment)
            var settings = try settings(environment: environment, directories: directories)
            if let overrideURL { settings.baseURL = overrideURL }
            if let overrideIssuer { settings.issuer = overrideIssuer }
            var configuration = try make(settings, environment: environment, directories: directories)
            configuration.account = environment["RIDER_ACCOUNT"].flatMap { $0.isEmpty ? nil : $0 }
            return configuration
        }

        /// Whether the settings name a server at all (a base URL, an issuer or a resource), so that commands
        /// which read every stored session can do without one (`rider session list`).
        /// - Throws: what reading the config file throws.
        package static func namesServer(environment: [String: String]) throws -> Bool {
            let settings = try settings(environment: environment, directories: XDGDirectories(environment: environment))
            return [settings.baseURL, settings.issuer, settings.resource].contains { !($0 ?? "").isEmpty }
        }

        /// The config file's settings with the `RIDER_…` variables over them, as every reader takes them.
        private static func settings(environment: [String: String], directories: XDGDirectories) throws
            -> ConfigurationFile.Settings
        {
            var settings = try ConfigurationFile.load(environment: environment, directories: directories)
            settings.merge(ConfigurationFile.Settings(environment: environment))
            return settings
        }

        /// Checks settings the way ``load(environment:baseURL:issuer:)`` would, without reading the
        /// environment or any file (`rider config set` checks a value before writing it).
        /// - Throws: `RiderError.invalidConfiguration(_:)` naming the setting at fault.
        package static func validate(_ settings: ConfigurationFile.Settings) throws {
            _ = try make(settings, environment: [:], directories: XDGDirectories(environment: [:]))
        }

        /// Parses and checks every setting.
        private static func make(_ settings: ConfigurationFile.Settings, environment: [String: String],
                                 directories: XDGDirectories) throws -> Configuration {
            let issuer = try settings.issuer.flatMap { $0.isEmpty ? nil : $0 }.map { value in
                guard let url = URL(string: value), url.scheme != nil else {
                    throw RiderError.invalidConfiguration("the issuer '\(value)' is not an absolute URL such as https://id.example.com")
                }
                return url
            }
            let resource = try settings.resource.flatMap { $0.isEmpty ? nil : $0 }.map { value in
                guard let url = URL(string: value), url.scheme != nil, url.host != nil else {
                    throw RiderError.invalidConfiguration("the resource '\(value)' is not an absolute URL such as "
                        + "https://api.example.com/")
                }
                return url
            }
            // A resource alone names the server too: its tokens go nowhere else.
            guard let base = settings.baseURL.flatMap({ $0.isEmpty ? nil : $0 }) ?? resource?.absoluteString
                ?? issuer?.absoluteString else {
                throw RiderError.invalidConfiguration(
                    "no server is set; set RIDER_BASE_URL (for example http://127.0.0.1:8080), RIDER_RESOURCE or "
                        + "RIDER_ISSUER, pass --server or --issuer, or put \"base_url\" in "
                        + "\(ConfigurationFile.defaultFile(in: directories).path)")
            }
            guard let url = URL(string: base) else {
                throw RiderError.invalidConfiguration("the server address '\(base)' is not a URL")
            }
            if let resource {
                try APIConfiguration.validateResource(resource, on: url)
            }
            // A key file alone means private_key_jwt: there is nothing else it could be for.
            var clientAuthentication: APIConfiguration.ClientAuthentication = settings.clientKeyFile == nil
                ? .basic : .privateKeyJWT
            if let value = settings.clientAuthentication {
                // RFC 8414's names for the two secret methods are taken too.
                let aliases = ["client_secret_basic": "basic", "client_secret_post": "body"]
                guard let parsed = APIConfiguration.ClientAuthentication(
                    rawValue: aliases[value.lowercased()] ?? value.lowercased()) else {
                    throw RiderError.invalidConfiguration("client authentication '\(value)' must be 'basic' "
                        + "(client_secret_basic), 'body' (client_secret_post), 'none' or 'private_key_jwt'")
                }
                clientAuthentication = parsed
            }
            var clientKeyFile: URL?
            if let value = settings.clientKeyFile, !value.isEmpty {
                guard value.hasPrefix("/") else {
                    throw RiderError.invalidConfiguration("the client key file '\(value)' must be an absolute path")
                }
                clientKeyFile = URL(fileURLWithPath: value)
            }
            var clientAssertionAudience = APIConfiguration.ClientAssertionAudience.issuer
            if let value = settings.clientAssertionAudience {
                guard let parsed = APIConfiguration.ClientAssertionAudience(rawValue: value.lowercased()) else {
                    throw RiderError.invalidConfiguration("the client assertion audience '\(value)' must be 'issuer' "
                        + "or 'token_endpoint'")
                }
                clientAssertionAudience = parsed
            }
            var dpop = APIConfiguration.DPoPUse.auto
            if let value = settings.dpop {
                guard let parsed = APIConfiguration.DPoPUse(rawValue: value.lowercased()) else {
                    throw RiderError.invalidConfiguration("DPoP '\(value)' must be 'auto', 'required' "
                        + "or 'off'")
                }
                dpop = parsed
            }
            var pushedAuthorization = APIConfiguration.PushedAuthorizationUse.auto
            if let value = settings.par {
                guard let parsed = APIConfiguration.PushedAuthorizationUse(rawValue: value.lowercased()) else {
                    throw RiderError.invalidConfiguration("PAR '\(value)' must be 'auto', 'required' or 'off'")
                }
                pushedAuthorization = parsed
            }
            var timeout = ConfigurationFile.Defaults.timeout
            if let value = settings.timeout {
                guard let seconds = TimeInterval(value), seconds > 0, seconds <= 600 else {
                    throw RiderError.invalidConfiguration("the timeout '\(value)' must be a number of seconds from 1 to 600")
                }
                timeout = seconds
            }
            var vault = VaultChoice.automatic
            if let value = settings.vault {
                guard let parsed = VaultChoice(setting: value) else {
                    throw RiderError.invalidConfiguration("the vault '\(value)' must be 'automatic', 'secret-service', "
                        + "'encrypted-file', 'file:/absolute/path' or 'memory'")
                }
                vault = parsed
            }
            var keyringTimeout = Duration.seconds(ConfigurationFile.Defaults.keyringTimeout)
            if let value = settings.keyringTimeout {
                guard let seconds = Double(value), seconds > 0, seconds <= 60 else {
                    throw RiderError.invalidConfiguration("the keyring timeout '\(value)' must be a number of seconds "
                        + "above 0 and at most 60")
                }
                keyringTimeout = .milliseconds(Int(seconds * 1000))
            }
            var unlockTimeout = Duration.seconds(ConfigurationFile.Defaults.vaultUnlockTimeout)
            if let value = settings.vaultUnlockTimeout {
                guard let seconds = Int(value) ?? Double(value).flatMap({ $0.rounded() == $0 ? Int(exactly: $0) : nil }),
                      seconds >= 0, seconds <= 86_400 else {
                    throw RiderError.invalidConfiguration("the vault unlock timeout '\(value)' must be a whole number of "
                        + "seconds from 0 (ask in every process) to 86400")
                }
                unlockTimeout = .seconds(seconds)
            }
            let proxies = ProxyEnvironment(environment: environment)
            if let problem = proxies.problem { throw RiderError.invalidConfiguration(problem) }
            var api = try APIConfiguration(
                baseURL: url,
                tokenPath: settings.tokenPath ?? ConfigurationFile.Defaults.tokenPath,
                mePath: settings.mePath ?? ConfigurationFile.Defaults.mePath,
                revokePath: settings.revokePath ?? ConfigurationFile.Defaults.revokePath,
                clientID: settings.clientID,
                clientSecret: settings.clientSecret,
                clientAuthentication: clientAuthentication,
                scope: settings.scope,
                requestTimeout: timeout)
            api.dpop = dpop
            api.pushedAuthorization = pushedAuthorization
            api.clientAssertionAudience = clientAssertionAudience
            api.resource = resource
            var configuration = Configuration(api: api, vault: vault, directories: directories,
                                 vaultPassphrase: VaultPassphrase.environment(environment) ?? .unavailable,
                                 keyringTimeout: keyringTimeout, cache: try CacheConfiguration(settings),
                                 identity: RequestIdentity(languages: RequestIdentity.languages(fromEnvironment: environment)),
                                 proxies: proxies,
                                 discovery: try issuer.map { try ProviderDiscovery.Configuration(issuer: $0, requestTimeout: timeout) },
                                 endpoints: try explicitEndpoints(settings, api: api))
            configuration.vaultUnlockRetention = .kernelKeyring(timeout: unlockTimeout)
            configuration.hasRiderAPI = settings.baseURL.map { !$0.isEmpty } ?? false
            configuration.listenAddresses = try (settings.listen ?? "")
                .split(whereSeparator: { $0 == " " || $0 == "," }).map { try LoopbackListenAddress(parsing: String($0)) }
            // The sign-in's listener takes them too, so what a registration names is where it listens.
            if !configuration.listenAddresses.isEmpty {
                configuration.userAgent = LoopbackBrowserUserAgent(listeningOn: configuration.listenAddresses)
            }
            configuration.clientKeyFile = clientKeyFile
            if let value = settings.clientIDMetadataURL, !value.isEmpty {
                guard let url = URL(string: value), url.scheme?.lowercased() == "https", url.host != nil,
                      url.fragment == nil, url.path.count > 1 else {
                    throw RiderError.invalidConfiguration("the client id metadata URL '\(value)' must be an https URL "
                        + "with a path, such as https://example.com/rider/client-metadata.json")
                }
                configuration.clientIDMetadataURL = url
            }
            return configuration
        }
    }
}

extension RiderKit.Configuration {
    /// The endpoints the settings name by hand: `token_path` and `revoke_path` when set (relative
    /// to the API, or absolute), and the absolute `authorization_endpoint`,
    /// `device_authorization_endpoint`, `userinfo_endpoint` and `jwks_uri`.
    /// - Throws: `RiderError.invalidConfiguration(_:)` naming the setting.
    static func explicitEndpoints(_ settings: ConfigurationFile.Settings, api: APIConfiguration) throws -> ProviderEndpoints {
        func absolute(_ key: ConfigurationFile.Settings.CodingKeys) throws -> URL? {
            guard let value = settings[key], !value.isEmpty else { return nil }
            guard !value.hasPrefix("/"), let url = URL(string: value), url.scheme != nil else {
                throw RiderError.invalidConfiguration("\(key.rawValue) '\(value)' must be an absolute URL such as "
                    + "https://id.example.com/…")
            }
            return try api.url(for: url.absoluteString)
        }
        func onAPI(_ value: String?) throws -> URL? {
            guard let value, !value.isEmpty else { return nil }
            return try api.url(for: value)
        }
        return ProviderEndpoints(
            authorization: try absolute(.authorizationEndpoint), token: try onAPI(settings.tokenPath),
            deviceAuthorization: try absolute(.deviceAuthorizationEndpoint), revocation: try onAPI(settings.revokePath),
            userinfo: try absolute(.userinfoEndpoint), jwks: try absolute(.jwksURI))
    }
}

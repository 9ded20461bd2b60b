import Foundation
import RiderApplication
import RiderInfrastructure

/// What `rider config` needs to know about each setting besides its name.
extension ConfigurationFile.Settings.CodingKeys {
    /// How a value is written in the file.
    package enum Kind: Sendable {
        case text, number, flag
    }

    /// The variable that overrides the file: `RIDER_BASE_URL` for `base_url`.
    package var environmentVariable: String { "RIDER_" + rawValue.uppercased() }

    /// A secret is never printed, and never taken from the command line.
    package var isSecret: Bool { self == .clientSecret }

    /// How the file spells the value: `"timeout": 20`, `"cache_keep_on_logout": true`.
    package var kind: Kind {
        switch self {
        case .timeout, .keyringTimeout, .vaultUnlockTimeout, .cacheTimeToLive, .cacheMaximumUsers: .number
        case .cacheKeepOnLogout: .flag
        default: .text
        }
    }

    /// What RiderKit uses when neither the file nor the environment sets it; `nil` for none.
    package var defaultValue: String? {
        switch self {
        case .tokenPath: ConfigurationFile.Defaults.tokenPath
        case .mePath: ConfigurationFile.Defaults.mePath
        case .revokePath: ConfigurationFile.Defaults.revokePath
        case .clientAuthentication: "basic (private_key_jwt with client_key_file)"
        case .clientAssertionAudience: APIConfiguration.ClientAssertionAudience.issuer.rawValue
        case .dpop: APIConfiguration.DPoPUse.auto.rawValue
        case .par: APIConfiguration.PushedAuthorizationUse.auto.rawValue
        case .listen: "any free port"
        case .timeout: Self.seconds(ConfigurationFile.Defaults.timeout)
        case .vault: "automatic"
        case .keyringTimeout: Self.seconds(ConfigurationFile.Defaults.keyringTimeout)
        case .vaultUnlockTimeout: String(ConfigurationFile.Defaults.vaultUnlockTimeout)
        case .cache: "sqlite"
        case .cacheTimeToLive: Self.seconds(CacheSettings().timeToLive)
        case .cacheMaximumUsers: String(SQLiteUserCache.Configuration.defaultMaximumEntries)
        case .cacheKeepOnLogout: "false"
        case .baseURL, .issuer, .resource, .clientIDMetadataURL, .clientID, .clientSecret, .clientKeyFile, .scope, .authorizationEndpoint, .deviceAuthorizationEndpoint,
             .userinfoEndpoint, .jwksURI: nil
        }
    }

    /// The values the setting takes, for help and error messages.
    package var allowedValues: String {
        switch self {
        case .baseURL: "an https URL (http only for loopback), e.g. https://api.example.com"
        case .issuer: "the provider's issuer: an https URL (http only for loopback), exactly as its metadata spells it"
        case .resource: "the protected resource signed in to, an https URL (http only for loopback) on the server's origin; its metadata (RFC 9728) names the provider"
        case .tokenPath, .revokePath: "a path on the server, e.g. /auth/token, or an absolute https URL (wins over discovery)"
        case .mePath: "a path on the server, e.g. /auth/me"
        case .authorizationEndpoint, .deviceAuthorizationEndpoint, .userinfoEndpoint, .jwksURI:
            "an absolute https URL (http only for loopback); wins over discovery"
        case .clientID, .scope: "any text"
        case .clientSecret: "any text (a secret: never printed)"
        case .clientAuthentication: "basic (client_secret_basic), body (client_secret_post), none or private_key_jwt"
        case .clientIDMetadataURL: "the https URL of rider's client id metadata document, used as its client id where the provider takes one and no client_id is set"
        case .clientKeyFile: "an absolute path to the client's private key (PEM, P-256 or RSA), readable by you alone"
        case .clientAssertionAudience: "issuer or token_endpoint: the aud of private_key_jwt assertions"
        case .dpop: "auto (when the provider offers it), required or off"
        case .par: "auto (push browser sign-ins where the provider takes them), required or off"
        case .listen: "loopback addresses for the browser's return, tried in order: 127.0.0.1:PORT [::1]:PORT"
        case .timeout: "seconds, 1 to 600"
        case .vault: "automatic, secret-service, encrypted-file, file:/absolute/path or memory"
        case .keyringTimeout: "seconds, above 0 and at most 60"
        case .vaultUnlockTimeout: "whole seconds, 0 (ask in every process) to 86400"
        case .cache: "sqlite, sqlite:/absolute/path/users.sqlite or memory"
        case .cacheTimeToLive: "seconds, 0 to 31536000"
        case .cacheMaximumUsers: "a whole number of users, 1 to 10000000"
        case .cacheKeepOnLogout: "true or false"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}

extension ConfigurationFile {
    /// The values RiderKit falls back on, in one place for loading and for `rider config show`.
    enum Defaults {
        static let tokenPath = "/auth/token"
        static let mePath = "/auth/me"
        static let revokePath = "/auth/revoke"
        static let timeout: TimeInterval = 15
        static let keyringTimeout: Double = 2
        /// How long the encrypted file stays unlocked in the kernel keyring, as `sudo`'s timestamp.
        static let vaultUnlockTimeout = 900
    }
}

import Foundation
import RiderDomain
import RiderInfrastructure

/// The optional JSON config file (`$XDG_CONFIG_HOME/rider/config.json`):
///
/// ```json
/// { "base_url": "https://api.example.com", "client_id": "rider-cli", "timeout": 20 }
/// ```
enum ConfigurationFile {
    struct Settings: Decodable, Sendable {
        var baseURL: String?
        var tokenPath: String?
        var mePath: String?
        var revokePath: String?
        var clientID: String?
        var clientSecret: String?
        var clientAuthentication: String?
        var scope: String?
        var timeout: String?
        var vault: String?
        var keyringTimeout: String?
        var cache: String?
        var cacheTimeToLive: String?
        var cacheMaximumUsers: String?
        var cacheKeepOnLogout: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case baseURL = "base_url"
            case tokenPath = "token_path"
            case mePath = "me_path"
            case revokePath = "revoke_path"
            case clientID = "client_id"
            case clientSecret = "client_secret"
            case clientAuthentication = "client_auth"
            case scope
            case timeout
            case vault
            case keyringTimeout = "keyring_timeout"
            case cache
            case cacheTimeToLive = "cache_ttl"
            case cacheMaximumUsers = "cache_max_users"
            case cacheKeepOnLogout = "cache_keep_on_logout"
        }

        init() {}

        init(environment: [String: String]) {
            func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
            baseURL = value("RIDER_BASE_URL")
            tokenPath = value("RIDER_TOKEN_PATH")
            mePath = value("RIDER_ME_PATH")
            revokePath = value("RIDER_REVOKE_PATH")
            clientID = value("RIDER_CLIENT_ID")
            clientSecret = value("RIDER_CLIENT_SECRET")
            clientAuthentication = value("RIDER_CLIENT_AUTH")
            scope = value("RIDER_SCOPE")
            timeout = value("RIDER_TIMEOUT")
            vault = value("RIDER_VAULT")
            keyringTimeout = value("RIDER_KEYRING_TIMEOUT")
            cache = value("RIDER_CACHE")
            cacheTimeToLive = value("RIDER_CACHE_TTL")
            cacheMaximumUsers = value("RIDER_CACHE_MAX_USERS")
            cacheKeepOnLogout = value("RIDER_CACHE_KEEP_ON_LOGOUT")
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func string(_ key: CodingKeys) throws -> String? {
                if let number = try? container.decodeIfPresent(Double.self, forKey: key) {
                    return String(number)
                }
                if let flag = try? container.decodeIfPresent(Bool.self, forKey: key) { return String(flag) }
                return try container.decodeIfPresent(String.self, forKey: key)
            }
            baseURL = try string(.baseURL)
            tokenPath = try string(.tokenPath)
            mePath = try string(.mePath)
            revokePath = try string(.revokePath)
            clientID = try string(.clientID)
            clientSecret = try string(.clientSecret)
            clientAuthentication = try string(.clientAuthentication)
            scope = try string(.scope)
            timeout = try string(.timeout)
            vault = try string(.vault)
            keyringTimeout = try string(.keyringTimeout)
            cache = try string(.cache)
            cacheTimeToLive = try string(.cacheTimeToLive)
            cacheMaximumUsers = try string(.cacheMaximumUsers)
            cacheKeepOnLogout = try string(.cacheKeepOnLogout)
        }

        /// Takes every value `other` sets.
        mutating func merge(_ other: Settings) {
            baseURL = other.baseURL ?? baseURL
            tokenPath = other.tokenPath ?? tokenPath
            mePath = other.mePath ?? mePath
            revokePath = other.revokePath ?? revokePath
            clientID = other.clientID ?? clientID
            clientSecret = other.clientSecret ?? clientSecret
            clientAuthentication = other.clientAuthentication ?? clientAuthentication
            scope = other.scope ?? scope
            timeout = other.timeout ?? timeout
            vault = other.vault ?? vault
            keyringTimeout = other.keyringTimeout ?? keyringTimeout
            cache = other.cache ?? cache
            cacheTimeToLive = other.cacheTimeToLive ?? cacheTimeToLive
            cacheMaximumUsers = other.cacheMaximumUsers ?? cacheMaximumUsers
            cacheKeepOnLogout = other.cacheKeepOnLogout ?? cacheKeepOnLogout
        }
    }

    static func defaultFile(in directories: XDGDirectories) -> URL {
        directories.configHome.appendingPathComponent("rider", isDirectory: true).appendingPathComponent("config.json")
    }

    /// The settings in the file, or none when there is no file.
    /// - Throws: ``RiderError/invalidConfiguration(_:)`` for an unreadable or invalid file, or an
    ///   unknown key (a typo should not be silently ignored).
    static func load(environment: [String: String], directories: XDGDirectories) throws -> Settings {
        let explicit = environment["RIDER_CONFIG"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        let file = explicit ?? defaultFile(in: directories)
        guard FileManager.default.fileExists(atPath: file.path) else {
            if explicit != nil {
                throw RiderError.invalidConfiguration("the config file \(file.path) named by RIDER_CONFIG does not exist")
            }
            return Settings()
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw RiderError.invalidConfiguration("cannot read the config file \(file.path)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw RiderError.invalidConfiguration("the config file \(file.path) is not a JSON object")
        }
        let known = Set(Settings.CodingKeys.allCases.map(\.rawValue))
        let unknown = object.keys.filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw RiderError.invalidConfiguration(
                "the config file \(file.path) has unknown settings: \(unknown.joined(separator: ", ")) "
                    + "(known: \(known.sorted().joined(separator: ", ")))")
        }
        do {
            return try JSONDecoder().decode(Settings.self, from: data)
        } catch {
            throw RiderError.invalidConfiguration("the config file \(file.path) has a setting of the wrong type")
        }
    }
}

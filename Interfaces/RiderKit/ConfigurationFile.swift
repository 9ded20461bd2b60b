import Foundation
import RiderDomain
import RiderInfrastructure

/// The optional JSON config file (`$XDG_CONFIG_HOME/rider/config.json`):
///
/// ```json
/// { "base_url": "https://api.example.com", "client_id": "rider-cli", "timeout": 20 }
/// ```
package enum ConfigurationFile {
    /// The file's settings, every value as text (numbers and flags are read as text too).
    package struct Settings: Decodable, Sendable {
        package var baseURL: String?
        package var issuer: String?
        package var resource: String?
        package var tokenPath: String?
        package var mePath: String?
        package var revokePath: String?
        package var authorizationEndpoint: String?
        package var deviceAuthorizationEndpoint: String?
        package var userinfoEndpoint: String?
        package var jwksURI: String?
        package var clientID: String?
        package var clientSecret: String?
        package var clientAuthentication: String?
        package var clientKeyFile: String?
        package var clientIDMetadataURL: String?
        package var clientAssertionAudience: String?
        package var scope: String?
        package var dpop: String?
        package var par: String?
        package var listen: String?
        package var timeout: String?
        package var vault: String?
        package var keyringTimeout: String?
        package var vaultUnlockTimeout: String?
        package var cache: String?
        package var cacheTimeToLive: String?
        package var cacheMaximumUsers: String?
        package var cacheKeepOnLogout: String?

        /// The settings' names in the file; `rider config` lists them in this order.
        package enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
            case baseURL = "base_url"
            case issuer
            case resource
            case tokenPath = "token_path"
            case mePath = "me_path"
            case revokePath = "revoke_path"
            case authorizationEndpoint = "authorization_endpoint"
            case deviceAuthorizationEndpoint = "device_authorization_endpoint"
            case userinfoEndpoint = "userinfo_endpoint"
            case jwksURI = "jwks_uri"
            case clientID = "client_id"
            case clientSecret = "client_secret"
            case clientAuthentication = "client_auth"
            case clientKeyFile = "client_key_file"
            case clientIDMetadataURL = "client_id_metadata_url"
            case clientAssertionAudience = "client_assertion_audience"
            case scope
            case dpop
            case par
            case listen
            case timeout
            case vault
            case keyringTimeout = "keyring_timeout"
            case vaultUnlockTimeout = "vault_unlock_timeout"
            case cache
            case cacheTimeToLive = "cache_ttl"
            case cacheMaximumUsers = "cache_max_users"
            case cacheKeepOnLogout = "cache_keep_on_logout"

            /// The setting nearest to a mistyped `name` (`timout`: `timeout`), if one is that near.
            package static func nearest(to name: String) -> String? {
                EditDistance.nearest(to: name, among: allCases.map(\.rawValue))
            }
        }

        package init() {}

        /// The `RIDER_…` variables; an empty variable counts as unset.
        package init(environment: [String: String]) {
            for key in CodingKeys.allCases {
                self[key] = environment[key.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
            }
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            for key in CodingKeys.allCases {
                if key.kind == .number, let number = try? container.decodeIfPresent(Double.self, forKey: key) {
                    self[key] = String(number)
                } else if key.kind == .flag, let flag = try? container.decodeIfPresent(Bool.self, forKey: key) {
                    self[key] = String(flag)
                } else {
                    // A URL or an id written as a number would be read as "5.0": said plainly instead.
                    self[key] = try container.decodeIfPresent(String.self, forKey: key)
                }
            }
        }

        /// Takes every value `other` sets.
        mutating func merge(_ other: Settings) {
            for key in CodingKeys.allCases {
                self[key] = other[key] ?? self[key]
            }
        }

        /// One setting by its name in the file.
        package subscript(key: CodingKeys) -> String? {
            get {
                switch key {
                case .baseURL: baseURL
                case .issuer: issuer
                case .resource: resource
                case .tokenPath: tokenPath
                case .mePath: mePath
                case .revokePath: revokePath
                case .authorizationEndpoint: authorizationEndpoint
                case .deviceAuthorizationEndpoint: deviceAuthorizationEndpoint
                case .userinfoEndpoint: userinfoEndpoint
                case .jwksURI: jwksURI
                case .clientID: clientID
                case .clientSecret: clientSecret
                case .clientAuthentication: clientAuthentication
                case .clientKeyFile: clientKeyFile
                case .clientIDMetadataURL: clientIDMetadataURL
                case .clientAssertionAudience: clientAssertionAudience
                case .scope: scope
                case .dpop: dpop
                case .par: par
                case .listen: listen
                case .timeout: timeout
                case .vault: vault
                case .keyringTimeout: keyringTimeout
                case .vaultUnlockTimeout: vaultUnlockTimeout
                case .cache: cache
                case .cacheTimeToLive: cacheTimeToLive
                case .cacheMaximumUsers: cacheMaximumUsers
                case .cacheKeepOnLogout: cacheKeepOnLogout
                }
            }
            set {
                switch key {
                case .baseURL: baseURL = newValue
                case .issuer: issuer = newValue
                case .resource: resource = newValue
                case .tokenPath: tokenPath = newValue
                case .mePath: mePath = newValue
                case .revokePath: revokePath = newValue
                case .authorizationEndpoint: authorizationEndpoint = newValue
                case .deviceAuthorizationEndpoint: deviceAuthorizationEndpoint = newValue
                case .userinfoEndpoint: userinfoEndpoint = newValue
                case .jwksURI: jwksURI = newValue
                case .clientID: clientID = newValue
                case .clientSecret: clientSecret = newValue
                case .clientAuthentication: clientAuthentication = newValue
                case .clientKeyFile: clientKeyFile = newValue
                case .clientIDMetadataURL: clientIDMetadataURL = newValue
                case .clientAssertionAudience: clientAssertionAudience = newValue
                case .scope: scope = newValue
                case .dpop: dpop = newValue
                case .par: par = newValue
                case .listen: listen = newValue
                case .timeout: timeout = newValue
                case .vault: vault = newValue
                case .keyringTimeout: keyringTimeout = newValue
                case .vaultUnlockTimeout: vaultUnlockTimeout = newValue
                case .cache: cache = newValue
                case .cacheTimeToLive: cacheTimeToLive = newValue
                case .cacheMaximumUsers: cacheMaximumUsers = newValue
                case .cacheKeepOnLogout: cacheKeepOnLogout = newValue
                }
            }
        }
    }

    /// `$XDG_CONFIG_HOME/rider/config.json`.
    package static func defaultFile(in directories: XDGDirectories) -> URL {
        directories.configHome.appendingPathComponent("rider", isDirectory: true).appendingPathComponent("config.json")
    }

    /// Where the config file is: `$RIDER_CONFIG` when set (`isExplicit`), else ``defaultFile(in:)``.
    package static func location(environment: [String: String],
                                 directories: XDGDirectories) -> (file: URL, isExplicit: Bool) {
        if let path = environment["RIDER_CONFIG"], !path.isEmpty {
            return (URL(fileURLWithPath: path), true)
        }
        return (defaultFile(in: directories), false)
    }

    /// The settings in the file, or none when there is no file.
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` for a file that someone else
    ///   could change (``contents(of:)``), that others may read while it holds `client_secret`, that
    ///   is invalid, or that has an unknown key (a typo should not be silently ignored).
    static func load(environment: [String: String], directories: XDGDirectories) throws -> Settings {
        let (file, explicit) = location(environment: environment, directories: directories)
        guard let (data, othersMayRead) = try contents(of: file) else {
            if explicit {
                throw RiderError.invalidConfiguration("the config file \(file.path) named by RIDER_CONFIG does not exist")
            }
            return Settings()
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw RiderError.invalidConfiguration("the config file \(file.path) is not valid JSON"
                + (Self.place(of: error, in: data).map { " (\($0))" } ?? ""), underlying: error)
        }
        guard let object = parsed as? [String: Any] else {
            throw RiderError.invalidConfiguration("the config file \(file.path) is not a JSON object ({ \"key\": value, … })")
        }
        let names = Settings.CodingKeys.allCases.map(\.rawValue)
        let unknown = object.keys.filter { !names.contains($0) }.sorted()
        guard unknown.isEmpty else {
            let described = unknown.map { key in
                Settings.CodingKeys.nearest(to: key).map { "\(key) (did you mean \($0)?)" } ?? key
            }
            throw RiderError.invalidConfiguration(
                "the config file \(file.path) has unknown settings: \(described.joined(separator: ", ")) "
                    + "(known: \(names.sorted().joined(separator: ", ")))")
        }
        let settings: Settings
        do {
            settings = try JSONDecoder().decode(Settings.self, from: data)
        } catch let DecodingError.typeMismatch(_, context) {
            let key = context.codingPath.last.flatMap { Settings.CodingKeys(stringValue: $0.stringValue) }
            throw RiderError.invalidConfiguration("the config file \(file.path) has " + (key.map {
                "\($0.rawValue) of the wrong type: it takes \($0.allowedValues), written "
                    + ($0.kind == .text ? "in quotes" : $0.kind == .flag ? "true or false" : "as a number")
            } ?? "a setting of the wrong type"))
        } catch {
            throw RiderError.invalidConfiguration("the config file \(file.path) has a setting of the wrong type",
                                                  underlying: error)
        }
        if settings.clientSecret != nil, othersMayRead {
            throw RiderError.invalidConfiguration(
                "the config file \(file.path) holds client_secret but other users may read it; "
                    + "run `chmod 600 \(file.path)`")
        }
        return settings
    }

    /// Where in `data` a JSON parser stopped, as a person counts: "line 3, column 14". Foundation
    /// says "around character N" (or "line L, column C" on some platforms).
    static func place(of error: any Error, in data: Data) -> String? {
        guard let said = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return nil }
        if let line = said.firstMatch(of: /line (\d+), column (\d+)/) { return "line \(line.1), column \(line.2)" }
        guard let match = said.firstMatch(of: /character (\d+)/), let offset = Int(match.1) else { return nil }
        let before = data.prefix(offset)
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 - before.startIndex + 1 } ?? 0) + 1
        return "line \(line), column \(column)"
    }

    // MARK: Trust

    /// The config file's bytes and whether users other than its owner may read them, or `nil`
    /// when there is no file. The file is refused, never repaired, when anyone but the user (or
    /// root) could change it or a folder on the way to it: it names the servers the session's
    /// tokens are sent to. A symbolic link is followed only from a folder others cannot write.
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` naming the file, and the
    ///   `chmod` or `chown` that would make it trustworthy.
    package static func contents(of file: URL) throws -> (data: Data, othersMayRead: Bool)? {
        do {
            return try SettingsFile.read(file)
        } catch {
            throw refusal(error, file: file.path)
        }
    }

    /// Where a new version of `file` is renamed to: `file`, or where its symbolic link points when
    /// the link sits in a folder others cannot write; a missing folder is created 0700.
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)``, as ``contents(of:)``.
    package static func replacementTarget(for file: URL) throws -> URL {
        do {
            return try SettingsFile.replacementTarget(for: file)
        } catch {
            throw refusal(error, file: file.path)
        }
    }

    /// The configuration error for a config file (or a folder on its way) that is not trusted.
    private static func refusal(_ error: VaultError, file: String) -> RiderError {
        let reason: String
        switch error {
        case .permissionsTooOpen(let path, let mode) where !path.hasSuffix("/"):
            reason = String(format: "refusing to use the config file %@: its permissions %03o let other users "
                + "change it; run `chmod go-w %@` if you trust its contents", path, mode, path)
        case .permissionsTooOpen(let folder, let mode) where mode & 0o1000 != 0:
            reason = String(format: "refusing to use the config file %@: it is directly in %@, a shared "
                + "folder (mode %03o) where other users can create files; keep it in a folder of your own",
                file, folder, mode)
        case .permissionsTooOpen(let folder, let mode):
            reason = String(format: "refusing to use the config file %@: the folder %@ (mode %03o) lets other "
                + "users change what is in it; run `chmod go-w %@` if you trust its contents",
                file, folder, mode, folder)
        case .notOwned(let path, let owner, let user):
            let (named, what) = path.hasSuffix("/") ? (file, "the folder \(path)") : (path, "it")
            reason = "refusing to use the config file \(named): \(what) belongs to \(owner), not to you (\(user)) "
                + "or root, so they could change it; run `chown \(user) \(path)` if you trust its contents"
        case .io(let path, let detail):
            reason = "cannot read the config file \(file): \(path == file ? "" : path + ": ")\(detail)"
        default:
            reason = "cannot read the config file \(file): \(error.message)"
        }
        return RiderError.invalidConfiguration(reason, underlying: error)
    }
}

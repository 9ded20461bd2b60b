import Foundation
import RiderApplication
import RiderKit

/// One setting as `rider config show` prints it: its effective value and where that comes from.
/// A secret's value is never printed, only whether it is set.
struct ConfigSettingOutput: Encodable, Sendable {
    /// Where the effective value comes from, strongest first.
    enum Source: String, Encodable, Sendable {
        /// `--server` (for `base_url`) or `--issuer` (for `issuer`).
        case option
        /// A `RIDER_…` environment variable.
        case environment
        /// The config file.
        case file
        /// RiderKit's default.
        case `default`
        /// The issuer's metadata (`token_path` and `revoke_path` when an issuer is set).
        case discovery
        /// Nothing sets it and there is no default.
        case unset
    }

    let key: String
    /// The effective value as text; `nil` when unset, and always for a secret. `--json` writes
    /// it typed (``typedValue``).
    @Nullable var value: String?
    /// What the setting reads as: a number for a number setting, `true`/`false` for a flag, else text.
    private let kind: ConfigKey.Kind
    /// Whether anything sets it: all a secret shows in place of its value.
    private(set) var set: Bool
    /// Whether the value is a secret, never printed.
    let secret: Bool
    private(set) var source: Source
    let environmentVariable: String
    /// Why RiderKit will refuse the effective value, if it will (commands then exit 10).
    @Nullable var problem: String?

    /// - Parameters:
    ///   - fileValue: what the config file says, if anything.
    ///   - environment: the process's variables (an empty variable counts as unset, as in RiderKit).
    ///   - server: `--server`, which overrides `base_url`.
    ///   - issuer: `--issuer`, which overrides `issuer`.
    init(_ key: ConfigKey, fileValue: String?, environment: [String: String], server: String?, issuer: String? = nil) {
        self.key = key.rawValue
        kind = key.kind
        secret = key.isSecret
        environmentVariable = key.environmentVariable
        let effective: String?
        if key == .baseURL, let server {
            (effective, source) = (server, .option)
        } else if key == .issuer, let issuer {
            (effective, source) = (issuer, .option)
        } else if let fromEnvironment = environment[key.environmentVariable], !fromEnvironment.isEmpty {
            (effective, source) = (fromEnvironment, .environment)
        } else if let fileValue {
            (effective, source) = (fileValue, .file)
        } else if let fallback = key.defaultValue {
            (effective, source) = (fallback, .default)
        } else {
            (effective, source) = (nil, .unset)
        }
        set = effective != nil
        value = secret ? nil : effective.map(Self.hidingUserinfo)
        // RiderKit's reason names the value; a secret's reason is not shown, only that it is refused.
        if let effective, source != .default, !secret {
            do {
                try key.check(effective)
                problem = nil
            } catch let ConfigError.invalidValue(_, reason) {
                problem = reason
            } catch {
                problem = error.localizedDescription
            }
        } else {
            problem = nil
        }
    }

    /// `value` with any `user:password@` of a URL replaced by `<redacted>@`: RiderKit refuses
    /// such a URL (and says so in `problem`), but its password must not reach the screen either.
    static func hidingUserinfo(_ value: String) -> String {
        guard let scheme = value.range(of: "://"),
              var components = URLComponents(string: value),
              components.user != nil || components.password != nil else { return value }
        components.user = nil
        components.password = nil
        guard let bare = components.string, let hostStart = bare.range(of: "://") else {
            return String(value[..<scheme.upperBound]) + "<redacted>"
        }
        return String(bare[..<hostStart.upperBound]) + "<redacted>@" + String(bare[hostStart.upperBound...])
    }

    /// Marks a setting RiderKit takes from the issuer's metadata when nothing sets it.
    mutating func discoveredWhenDefault() {
        guard source == .default || source == .unset else { return }
        (value, set, source) = (nil, false, .discovery)
    }

    /// The value column: `<redacted>` for a set secret, `-` for nothing.
    var shownValue: String {
        guard set else { return "-" }
        return secret ? "<redacted>" : (value ?? "-")
    }

    /// The source column: `file`, `default`, `env RIDER_TIMEOUT`, `--server` or `-`.
    var shownSource: String {
        switch source {
        case .option: return key == ConfigKey.issuer.rawValue ? "--issuer" : "--server"
        case .environment: return "env \(environmentVariable)"
        case .file: return "file"
        case .default: return "default"
        case .discovery: return "discovery"
        case .unset: return "-"
        }
    }

    /// The cells of this setting's line.
    var row: [String] { [key, shownValue, shownSource] }

    /// The value as JSON gives it, typed as the config file writes it: `"timeout": 20`,
    /// `"cache_keep_on_logout": false`, so a script compares numbers and booleans without
    /// parsing text. A value that does not read as its kind (which `problem` then explains) stays
    /// text, as it was given.
    var typedValue: JSONValue {
        guard let value else { return .null }
        switch kind {
        case .number: return JSONValue(number: value).flatMap { $0.isFinite ? $0 : nil } ?? .string(value)
        case .flag:
            switch value.lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return .string(value)
            }
        default: return .string(value)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case key, value, set, secret, source, environmentVariable, problem
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(typedValue, forKey: .value)
        try container.encode(set, forKey: .set)
        try container.encode(secret, forKey: .secret)
        try container.encode(source, forKey: .source)
        try container.encode(environmentVariable, forKey: .environmentVariable)
        try container.encode(_problem, forKey: .problem)
    }
}

private extension JSONValue {
    /// Whether a number is one JSON can write (`Double("inf")` parses, JSON has no infinity).
    var isFinite: Bool {
        if case .number(let value) = self { return value.isFinite }
        return true
    }
}

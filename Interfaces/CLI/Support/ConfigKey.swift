import RiderKit

/// A setting of the config file, by its name there (`base_url`, `timeout`, …): RiderKit's own
/// list, so `rider config` knows exactly the keys RiderKit reads.
typealias ConfigKey = ConfigurationFile.Settings.CodingKeys

extension ConfigKey {
    /// `key` as typed on the command line; `nil` when RiderKit has no such setting.
    static func named(_ name: String) -> ConfigKey? {
        ConfigKey(rawValue: name.lowercased())
    }

    /// Every key's name, for error messages and shell completion.
    static var names: [String] { allCases.map(\.rawValue) }

    /// Runs RiderKit's own checks on `text` as this setting's value (with a stand-in server when
    /// the key is not `base_url` or `resource`, since RiderKit needs one).
    /// - Throws: ``ConfigError/invalidValue(key:reason:)`` with RiderKit's reason.
    func check(_ text: String) throws {
        var settings = ConfigurationFile.Settings()
        // A resource alone names its server, and must be on its origin: no stand-in then (whether
        // it is on the configured server's is checked when the settings are read together).
        if self != .resource { settings.baseURL = "https://api.example.com" }
        settings[self] = text
        do {
            try RiderKit.Configuration.validate(settings)
        } catch let error as RiderError where error.code == .invalidConfiguration {
            throw ConfigError.invalidValue(key: rawValue, reason: error.detail ?? error.message)
        }
    }
}

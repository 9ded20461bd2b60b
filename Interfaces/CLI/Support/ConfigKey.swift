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
}

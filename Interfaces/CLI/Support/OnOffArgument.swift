import ArgumentParser
import RiderKit

/// `on` or `off` for a setting.
enum OnOffArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case on
    case off

    var isOn: Bool { self == .on }
}

/// `--profile-visibility everyone|members|nobody`.
enum ProfileVisibilityArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case everyone
    case members
    case nobody

    var visibility: ProfileVisibility { ProfileVisibility(rawValue: rawValue) }
}

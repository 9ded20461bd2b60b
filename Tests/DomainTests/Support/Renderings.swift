import Foundation

/// Every way a value can end up as text: interpolation, `description`, `debugDescription`,
/// `String(reflecting:)`, `dump` and a mirror walk.
///
/// A copy of TestSupport's `renderings(of:)`: DomainTests depends on RiderDomain alone.
func renderings(of value: some Any) -> [String: String] {
    var dumped = ""
    dump(value, to: &dumped)
    var children = ""
    for child in Mirror(reflecting: value).children {
        children += "\(child.label ?? "_"): \(String(reflecting: child.value))\n"
    }
    return [
        "interpolation": "\(value)",
        "String(describing:)": String(describing: value),
        "String(reflecting:)": String(reflecting: value),
        "debugDescription": (value as? any CustomDebugStringConvertible)?.debugDescription ?? "",
        "dump": dumped,
        "mirror": children,
    ]
}

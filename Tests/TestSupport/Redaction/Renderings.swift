import Foundation

/// Every way a value can end up as text — interpolation, `String(describing:)`,
/// `String(reflecting:)`, `debugDescription`, `dump` and a walk over its mirror — keyed by how,
/// so a redaction test can say which one leaked.
/// - Parameter value: the value to render.
/// - Returns: each rendering, keyed by its name.
public func renderings(of value: some Any) -> [String: String] {
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

/// Every way an error reaches a person or a log: the renderings of ``renderings(of:)`` plus
/// `localizedDescription`.
/// - Parameter error: the error.
/// - Returns: each rendering, keyed by its name.
public func renderings(ofError error: any Error) -> [String: String] {
    var result = renderings(of: error)
    result["localizedDescription"] = error.localizedDescription
    return result
}

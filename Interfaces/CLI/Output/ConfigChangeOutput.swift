import RiderKit

/// What `rider config set` and `unset` did. A secret's value is never echoed.
struct ConfigChangeOutput: Encodable, Sendable {
    /// `set`, `unset`, or `unchanged` when `unset` found nothing to remove.
    let action: String
    let key: String
    /// The value written; `nil` for `unset` and for a secret.
    let value: String?
    let file: String

    /// The confirmation line, e.g. `set timeout = 20 in /home/me/.config/rider/config.json`.
    var lines: [String] {
        switch action {
        case "set": return ["set \(key) = \(value ?? "<redacted>") in \(file)"]
        case "unset": return ["removed \(key) from \(file)"]
        default: return ["\(key) was not set in \(file); nothing changed"]
        }
    }
}

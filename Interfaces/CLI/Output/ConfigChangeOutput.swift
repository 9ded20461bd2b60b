import RiderKit

/// What `rider config set` and `unset` did. A secret's value is never echoed.
struct ConfigChangeOutput: Encodable, Sendable {
    /// `set`, `unset`, or `unchanged` when `unset` found nothing to remove.
    let action: String
    let key: String
    /// The value written; `null` for `unset` and for a secret (the keys are the same every time).
    @Nullable var value: String?
    let file: String
    /// Keys the file has that rider does not know, left as they were (none: empty). rider refuses
    /// to start while the file has one, so a change that leaves one says so: a typo (`timout`)
    /// kept beside the key just set is otherwise found only by the next command.
    let unknownKeys: [String]

    init(action: String, key: String, value: String?, file: String, unknownKeys: [String] = []) {
        self.action = action
        self.key = key
        self.value = value
        self.file = file
        self.unknownKeys = unknownKeys
    }

    /// The confirmation line, e.g. `set timeout = 20 in /home/me/.config/rider/config.json`.
    var lines: [String] {
        switch action {
        case "set": return ["set \(key) = \(value ?? "<redacted>") in \(file)"]
        case "unset": return ["removed \(key) from \(file)"]
        default: return ["\(key) was not set in \(file); nothing changed"]
        }
    }

    /// Prints the result (`--json`: the object), then, without `--json`, a warning per unknown key
    /// on standard error: what `config set` and `config unset` both end with.
    /// - Throws: what ``ConfigOutput/print(_:json:style:lines:)`` throws.
    func print(json: Bool) throws {
        try ConfigOutput.print(self, json: json, lines: lines)
        if !json { warnings.forEach { Console.standardError($0) } }
    }

    /// One warning line per unknown key (standard error), with the nearest setting and the command
    /// that removes it.
    var warnings: [String] {
        unknownKeys.map { unknown in
            let nearest = ConfigKey.nearest(to: unknown).map { " (did you mean \($0)?)" } ?? ""
            return "rider: warning: the file also has '\(unknown)'\(nearest), which is not a rider setting; rider will "
                + "not start until it is removed: rider config unset \(unknown)"
        }
    }
}

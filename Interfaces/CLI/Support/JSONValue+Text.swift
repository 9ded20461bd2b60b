import RiderApplication
import RiderKit

extension JSONValue {
    /// A number typed on the command line as the config file stores it: a whole number as an
    /// integer (`"timeout": 20`, not `20.0`), anything else as it parses; `nil` when `text` is
    /// not a number.
    init?(number text: String) {
        guard let value = Double(text) else { return nil }
        self = value.rounded() == value && abs(value) < 1e15 ? .integer(Int(value)) : .number(value)
    }

    /// The value as `rider config show` prints it: text as is, `20` rather than `20.0`.
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .integer(let value): return String(value)
        case .number(let value):
            return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): return value
        case .array, .object: return JSONOutput.string(self) ?? "?"
        }
    }
}

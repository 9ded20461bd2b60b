/// An optional field that `--json` writes as `null` when absent, so scripts see the same keys
/// every time. Synthesized `Encodable` leaves a `nil` optional out (`encodeIfPresent`); a wrapper
/// is not an optional, so its key is always written.
@propertyWrapper
struct Nullable<Value: Encodable & Sendable>: Encodable, Sendable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

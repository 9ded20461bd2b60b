import Foundation

extension FixtureJSON: Decodable {
    /// Reads any JSON value, so a stub can look at (or echo) the body it was sent. Object keys
    /// come back sorted, since JSON objects have no order to keep.
    /// - Throws: `DecodingError` for input that is not JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([FixtureJSON].self) {
            self = .array(array)
        } else {
            let object = try container.decode([String: FixtureJSON].self)
            self = .object(object.sorted { $0.key < $1.key }.map { Member($0.key, $0.value) })
        }
    }

    /// The JSON in `data`, or `nil` when it is not JSON.
    /// - Parameter data: a request or response body.
    public init?(data: Data) {
        guard let value = try? JSONDecoder().decode(FixtureJSON.self, from: data) else { return nil }
        self = value
    }
}

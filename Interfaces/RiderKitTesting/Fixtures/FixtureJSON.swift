import Foundation

/// A JSON value written by hand in a test, with object keys kept in order so bodies read
/// like the contract and failure messages are stable.
///
/// Literals build it (`["access_token": "a1", "expires_in": 3600]`); ``null`` is an explicit
/// JSON `null`, while leaving a key out is done with ``removing(_:)`` or an optional parameter.
public enum FixtureJSON: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, CustomStringConvertible
{
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case null
    case array([FixtureJSON])
    case object([Member])

    /// One key of an object.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: FixtureJSON

        /// - Parameters:
        ///   - key: the key.
        ///   - value: its value.
        public init(_ key: String, _ value: FixtureJSON) {
            self.key = key
            self.value = value
        }
    }

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: FixtureJSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, FixtureJSON)...) {
        self = .object(elements.map { Member($0.0, $0.1) })
    }

    /// An object of the non-`nil` pairs, in order: how fixtures leave optional keys out.
    /// - Parameter pairs: keys and values; a `nil` value omits the key.
    /// - Returns: the object.
    package static func object(dropping pairs: [(String, FixtureJSON?)]) -> FixtureJSON {
        .object(pairs.compactMap { key, value in value.map { Member(key, $0) } })
    }

    /// The value of `key` in an object (`nil` if absent or not an object). Setting `nil` removes
    /// the key; setting a new key appends it.
    public subscript(key: String) -> FixtureJSON? {
        get {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.key == key }?.value
        }
        set {
            guard case .object(var members) = self else { return }
            if let newValue {
                if let index = members.firstIndex(where: { $0.key == key }) {
                    members[index].value = newValue
                } else {
                    members.append(Member(key, newValue))
                }
            } else {
                members.removeAll { $0.key == key }
            }
            self = .object(members)
        }
    }

    /// A copy without `key`.
    /// - Parameter key: the key to leave out.
    /// - Returns: the object without it.
    public func removing(_ key: String) -> FixtureJSON {
        var copy = self
        copy[key] = nil
        return copy
    }

    /// A copy with `key` set to `value`.
    /// - Parameters:
    ///   - key: the key.
    ///   - value: its new value.
    /// - Returns: the changed object.
    public func setting(_ key: String, to value: FixtureJSON) -> FixtureJSON {
        var copy = self
        copy[key] = value
        return copy
    }

    /// Compact JSON text.
    public var text: String {
        switch self {
        case .string(let value): return Self.quote(value)
        case .integer(let value): return String(value)
        case .number(let value): return value.isFinite ? "\(value)" : "null"
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { Self.quote($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
        }
    }

    /// The JSON text as UTF-8.
    public var data: Data { Data(text.utf8) }

    public var description: String { text }

    private static func quote(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let scalar where scalar.value < 0x20:
                result += String(format: "\\u%04X", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

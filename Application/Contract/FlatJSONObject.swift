import Foundation

/// The members of a JSON object whose values are all scalars, read straight from the bytes: the
/// shape of the answers on the hot path (`GET /auth/me`, `GET /users/{id}`), which Foundation's
/// `JSONDecoder` spent more time on than the whole rest of RiderKit's work per request
/// (docs/performance.md, "The request path").
///
/// A fast path, never a second opinion: it reads only what it can read exactly as `JSONDecoder`
/// does and gives up (`nil`) on anything else — a string with an escape, bytes that are not
/// UTF-8, a nested object or array, a key twice, malformed JSON — so the caller decodes those with
/// `JSONDecoder`, whose answer and errors stay the contract. A test holds the two to the same
/// result on every input this one accepts.
package struct FlatJSONObject {
    /// A member's value as the hot DTOs read it.
    package enum Value: Equatable {
        case string(String)
        case null
        /// A number, `true` or `false`: well-formed, not kept (no hot DTO reads one).
        case other

        /// The value of an optional string member: `.some(nil)` for `null`, `nil` for another type.
        var optionalString: String?? {
            switch self {
            case .string(let text): return .some(text)
            case .null: return .some(nil)
            case .other: return nil
            }
        }
    }

    /// Objects with more members are left to `JSONDecoder`.
    package static let maximumMembers = 64

    /// The members in the order they came.
    package private(set) var members: [(key: String, value: Value)] = []

    /// The members of the object `data` holds, or `nil` when it is anything this reader leaves to
    /// `JSONDecoder` (see the type's description).
    package init?(_ data: Data) {
        let parsed: [(key: String, value: Value)]? = data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            return reader.object()
        }
        guard let parsed else { return nil }
        members = parsed
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func object() -> [(key: String, value: Value)]? {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [(key: String, value: Value)] = []
            members.reserveCapacity(8)
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return finished() ? members : nil }
            while true {
                skipWhitespace()
                // Past a few dozen members the duplicate check below would grow with their square:
                // a hostile answer of millions of keys must not hang the client.
                guard members.count < FlatJSONObject.maximumMembers else { return nil }
                guard take(UInt8(ascii: "\"")), let key = string() else { return nil }
                // Which of two equal keys `JSONDecoder` keeps is its business: leave it to it.
                guard !members.contains(where: { $0.key == key }) else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = value() else { return nil }
                members.append((key, value))
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                return finished() ? members : nil
            }
        }

        /// Only whitespace may follow the object.
        private mutating func finished() -> Bool {
            skipWhitespace()
            return index == bytes.count
        }

        private mutating func value() -> Value? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return string().map(Value.string)
            case UInt8(ascii: "n"):
                return literal("null") ? .null : nil
            case UInt8(ascii: "t"):
                return literal("true") ? .other : nil
            case UInt8(ascii: "f"):
                return literal("false") ? .other : nil
            default:
                return number() ? .other : nil
            }
        }

        /// The rest of a string whose opening quote was read; `nil` for an escape, a control
        /// character, the end of the input or bytes that are not UTF-8.
        private mutating func string() -> String? {
            let start = index
            var isASCII = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    let text = String(decoding: raw, as: UTF8.self)
                    // Decoding replaces what is not UTF-8, so the text differs from the bytes
                    // exactly when they were not (`String(validating:)` is not specialized, and
                    // cost more than the rest of the reader).
                    return isASCII || text.utf8.elementsEqual(raw) ? text : nil
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                if byte >= 0x80 { isASCII = false }
                index += 1
            }
            return nil
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// A number as RFC 8259 §6 spells it: `-`? int frac? exp?
        private mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            if take(UInt8(ascii: "0")) {
                if index < bytes.count, isDigit(bytes[index]) { return false }
            } else {
                skipDigits()
            }
            if take(UInt8(ascii: ".")) {
                guard skipDigits() else { return false }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard skipDigits() else { return false }
            }
            return true
        }

        /// Skips a run of digits; whether there was one.
        @discardableResult
        private mutating func skipDigits() -> Bool {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index > start
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
    }
}

/// A DTO that can be read from a ``FlatJSONObject``, for ``ContractCoding/decode(_:from:what:)``
/// to try before `JSONDecoder`.
protocol FlatJSONDecodable: Decodable {
    /// The value `JSONDecoder` would decode from `object`, or `nil` to leave it to `JSONDecoder`.
    init?(flat object: FlatJSONObject)
}

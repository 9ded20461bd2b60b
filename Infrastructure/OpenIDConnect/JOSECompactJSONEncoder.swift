import Foundation
import JWTKit

/// The JSON encoder jwt-kit serializes DPoP proofs with (its `JWTJSONEncoder` hook, set through
/// `DefaultJWTSerializer(jsonEncoder:)`): jwt-kit still base64url-encodes the claims and signs
/// (``JWTKitDPoPKey``'s signer joins the segments); only the two small JSON objects are written
/// here, straight into bytes, instead of through Foundation's `JSONEncoder` — which cost more
/// than twice the proof's one ES256 signature.
///
/// A `JWTHeader` is written member by member, keys in lexicographic order (so the same header is
/// always the same bytes); a ``JOSEDirectJSON`` value writes itself; anything else goes to
/// jwt-kit's default `JSONEncoder`, as does a header with a non-integer number in it.
package struct JOSECompactJSONEncoder: JWTJSONEncoder {
    private let fallback: any JWTJSONEncoder = .defaultForJWT

    package init() {}

    package func encode<T: Encodable>(_ value: T) throws -> Data {
        if let header = value as? JWTHeader {
            var writer = JOSEJSONWriter()
            if writer.object(header.fields) { return Data(writer.bytes) }
        } else if let direct = value as? any JOSEDirectJSON {
            var writer = JOSEJSONWriter()
            direct.writeJSON(to: &writer)
            return Data(writer.bytes)
        }
        return try fallback.encode(value)
    }
}

/// A value that writes its own JSON object for ``JOSECompactJSONEncoder``: the same object its
/// `Encodable` conformance would give, in a fixed member order.
protocol JOSEDirectJSON {
    func writeJSON(to writer: inout JOSEJSONWriter)
}

/// JSON text (RFC 8259) appended to a byte buffer: strings escaped as the grammar requires
/// (`"`, `\` and the control characters below U+0020; everything else is the string's own UTF-8,
/// which a Swift string always is, valid), integers in decimal.
struct JOSEJSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// `"key":` (escaped like any string) after a comma where one is due.
    mutating func key(_ key: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        string(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func member(_ key: String, _ value: String) {
        self.key(key)
        string(value)
        needsComma = true
    }

    mutating func member(_ key: String, _ value: Int) {
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// A member whose value is already JSON-safe ASCII (base64url), written without the escaping scan.
    mutating func member(_ key: String, base64URL value: some Collection<UInt8>) {
        self.key(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: value)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// `value` as a JSON string, quoted and escaped.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var clean = 0  // start of the run not yet copied
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                clean = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A header's members, keys sorted; `false` (nothing usable written) for a value this writer
    /// leaves to `JSONEncoder` — a non-integer number, whose text form is `JSONEncoder`'s to choose.
    mutating func object(_ fields: [String: JWTHeaderField]) -> Bool {
        beginObject()
        for name in fields.keys.sorted() {
            guard let field = fields[name] else { continue }
            key(name)
            guard value(field) else { return false }
            needsComma = true
        }
        endObject()
        return true
    }

    private mutating func value(_ field: JWTHeaderField) -> Bool {
        switch field {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): bytes.append(contentsOf: String(number).utf8)
        case .decimal: return false
        case .string(let text): string(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                guard value(element) else { return false }
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            return object(members)
        }
        return true
    }
}

/// base64url without padding (RFC 4648 §5) of a few bytes: a proof's `jti` and `ath`, written
/// into the claims as they are made rather than through `Data.base64EncodedString` and three
/// replacements.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ data: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((data.underestimatedCount * 4 + 2) / 3)
        var iterator = data.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next(), third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            out.append(alphabet[Int(group >> 18 & 0x3F)])
            out.append(alphabet[Int(group >> 12 & 0x3F)])
            if second != nil { out.append(alphabet[Int(group >> 6 & 0x3F)]) }
            if third != nil { out.append(alphabet[Int(group & 0x3F)]) }
        }
        return out
    }

    static func string(_ data: some Sequence<UInt8>) -> String {
        String(decoding: encode(data), as: UTF8.self)
    }
}

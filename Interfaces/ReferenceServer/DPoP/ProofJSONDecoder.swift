import Foundation
import JWTKit

/// The JSON decoder jwt-kit parses DPoP proofs with on this server (its `JWTJSONDecoder` hook,
/// set through `DefaultJWTParser(jsonDecoder:)`): jwt-kit still splits the proof and decodes its
/// base64url; the header (a few strings and the `jwk` object) and the claims are read with
/// Foundation's `JSONSerialization` instead of `JSONDecoder`, which on Linux cost about 20 µs
/// for each of the two small objects (`JWTHeaderField` tries each JSON type in turn) — together
/// more than the proof's signature check (release build; ≈ 4 µs each this way).
///
/// Only what reads exactly is taken this way: a header of strings, objects, arrays and nulls, no
/// deeper than jwt-kit allows; claims (``JSONObjectDecodable``) whose members all have the
/// expected types. Anything else goes to `JSONDecoder` whole, so what jwt-kit accepts or refuses,
/// and how it says so, is unchanged.
struct ProofJSONDecoder: JWTJSONDecoder {
    private let fallback: any JWTJSONDecoder = .defaultForJWT
    /// jwt-kit's `JWTHeaderField.maximumDepth`.
    static let maximumDepth = 32

    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if T.self == JWTHeader.self {
            if let header = Self.headers.value(for: JSONBytes(data), making: { Self.header($0.bytes) }) as? T { return header }
        } else if let readable = T.self as? any JSONObjectDecodable.Type,
                  let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                  let value = readable.init(jsonObject: object) as? T {
            return value
        }
        return try fallback.decode(type, from: data)
    }

    /// ``header(_:)`` of the headers seen lately, by their JSON's bytes: every proof of a key has
    /// the same header (its `typ`, `alg` and `jwk`), and reading it again cost as much as
    /// reading the claims. At most 1,024; when full, it starts again empty.
    static let headers = Memo<JSONBytes, JWTHeader?>()

    /// A header's JSON as a memo's key: hashed as one run of bytes (an array's own hashing feeds
    /// the hasher a byte at a time).
    struct JSONBytes: Hashable, Sendable {
        let bytes: [UInt8]

        init(_ data: Data) {
            bytes = Array(data)
        }

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// The header `json` holds, or `nil` for what is left to `JSONDecoder`.
    static func header(_ json: [UInt8]) -> JWTHeader? {
        fields(of: Data(json)).map { JWTHeader(fields: $0) }
    }

    /// A header's members, or `nil` for what is left to `JSONDecoder`.
    static func fields(of data: Data) -> [String: JWTHeaderField]? {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        return fields(object, depth: 1)
    }

    private static func fields(_ object: [String: Any], depth: Int) -> [String: JWTHeaderField]? {
        guard depth <= maximumDepth else { return nil }
        var fields: [String: JWTHeaderField] = [:]
        fields.reserveCapacity(object.count)
        for (name, value) in object {
            guard let field = field(value, depth: depth + 1) else { return nil }
            fields[name] = field
        }
        return fields
    }

    private static func field(_ value: Any, depth: Int) -> JWTHeaderField? {
        switch value {
        case let text as String: .string(text)
        case let object as [String: Any]: fields(object, depth: depth).map { .object($0) }
        case let array as [Any]:
            depth <= maximumDepth ? array.reduce(into: [JWTHeaderField]?([])) { result, element in
                guard result != nil, let field = field(element, depth: depth + 1) else { result = nil; return }
                result?.append(field)
            }.map { .array($0) } : nil
        case is NSNull: .null
        default: nil  // numbers and booleans: JSONDecoder's reading is jwt-kit's to define
        }
    }
}

/// A value ``ProofJSONDecoder`` can read from `JSONSerialization`'s object: `nil` unless every
/// member is there with the type its `Decodable` reading expects, which then decides.
protocol JSONObjectDecodable: Decodable {
    init?(jsonObject: [String: Any])
}

extension JSONObjectDecodable {
    /// A JSON string member; `nil` when absent or of another type.
    static func string(_ value: Any?) -> String? {
        value as? String
    }

    /// An optional string member: `.some(nil)` when absent or null, `nil` when of another type.
    static func optionalString(_ value: Any?) -> String?? {
        switch value {
        case nil, is NSNull: .some(nil)
        case let text as String: .some(text)
        default: nil
        }
    }

    /// A JSON number member (not a boolean, which Foundation also gives as `NSNumber`).
    static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return number.doubleValue
    }
}

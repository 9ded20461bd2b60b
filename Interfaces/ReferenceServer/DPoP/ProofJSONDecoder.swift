import Foundation
import JWTKit

/// The JSON decoder jwt-kit parses DPoP proofs with on this server (its `JWTJSONDecoder` hook,
/// set through `DefaultJWTParser(jsonDecoder:)`): jwt-kit still splits the proof, decodes its
/// base64url and its claims; only the header — a few strings and the `jwk` object — is read with
/// Foundation's `JSONSerialization` instead of `JSONDecoder`, where `JWTHeaderField`'s decoding
/// tries each JSON type in turn and cost about as much as the proof's signature check
/// (≈ 22 µs against ≈ 4 µs, release build, one proof header).
///
/// Only strings, objects, arrays and nulls are taken this way; a header with a number or a
/// boolean anywhere, or nested deeper than jwt-kit allows, goes to `JSONDecoder` whole, so what
/// jwt-kit accepts or refuses is unchanged.
struct ProofHeaderDecoder: JWTJSONDecoder {
    private let fallback: any JWTJSONDecoder = .defaultForJWT
    /// jwt-kit's `JWTHeaderField.maximumDepth`.
    static let maximumDepth = 32

    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if T.self == JWTHeader.self, let fields = Self.fields(of: data), let header = JWTHeader(fields: fields) as? T {
            return header
        }
        return try fallback.decode(type, from: data)
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

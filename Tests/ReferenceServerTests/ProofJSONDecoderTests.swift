import Foundation
import JWTKit
@testable import RiderReferenceServer
import Testing

/// The server reads proof headers with Foundation's JSON parser through jwt-kit's decoder hook;
/// whatever it reads must be what jwt-kit's own `JSONDecoder` reading gives, and what that
/// refuses must stay refused.
@Suite("DPoP proof headers read without JSONDecoder")
struct ProofHeaderDecoderTests {
    static func jwtKit(_ json: String) throws -> JWTHeader {
        try JSONDecoder().decode(JWTHeader.self, from: Data(json.utf8))
    }

    static func fast(_ json: String) throws -> JWTHeader {
        try ProofHeaderDecoder().decode(JWTHeader.self, from: Data(json.utf8))
    }

    @Test("a proof header, escapes, Unicode, arrays, nulls, numbers and booleans: the same header as JSONDecoder reads", arguments: [
        #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"AAAA","y":"BBBB"}}"#,
        #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"A\"\\\/\u0000\n\t\u00e9\ud83d\udeb2","y":"é ☃️"}}"#,
        #"{"alg":"ES256","jwk":{"key_ops":["verify",null,[]],"ext":true,"n":1,"d":2.5},"kid":null}"#,
        #"{"alg":"ES256","crit":[],"nested":{"a":{"b":{"c":"d"}}}}"#,
        #"{}"#,
    ])
    func sameAsJSONDecoder(json: String) throws {
        #expect(try Self.fast(json).fields == Self.jwtKit(json).fields)
    }

    @Test("what JSONDecoder refuses is refused: not JSON, not an object, nested deeper than jwt-kit allows")
    func refusals() throws {
        let deep = String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40)
        let deepStrings = String(repeating: #"{"a":"#, count: 40) + #""x""# + String(repeating: "}", count: 40)
        for json in [#"{"alg":"ES256""#, #"["ES256"]"#, #""ES256""#, deep, deepStrings, "{\"a\":\"\u{1}\"}"] {
            #expect((try? Self.jwtKit(json)) == nil, "\(json)")
            #expect((try? Self.fast(json)) == nil, "\(json)")
        }
    }
}

import Foundation
import JWTKit
@testable import RiderReferenceServer
import Testing

/// The server reads proof headers with Foundation's JSON parser through jwt-kit's decoder hook;
/// whatever it reads must be what jwt-kit's own `JSONDecoder` reading gives, and what that
/// refuses must stay refused.
@Suite("DPoP proof headers read without JSONDecoder")
struct ProofJSONDecoderTests {
    static func jwtKit(_ json: String) throws -> JWTHeader {
        try JSONDecoder().decode(JWTHeader.self, from: Data(json.utf8))
    }

    static func fast(_ json: String) throws -> JWTHeader {
        try ProofJSONDecoder().decode(JWTHeader.self, from: Data(json.utf8))
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

    @Test("a header read again is read from memory, the same; one refused is refused again; headers that differ only at their end are told apart")
    func readAgain() throws {
        let header = #"{"alg":"ES256","jwk":{"crv":"P-256","kty":"EC","x":"AAAA","y":"BBBB"},"typ":"dpop+jwt"}"#
        let other = #"{"alg":"ES256","jwk":{"crv":"P-256","kty":"EC","x":"AAAA","y":"BBBC"},"typ":"dpop+jwt"}"#
        let first = try Self.fast(header), again = try Self.fast(header), otherHeader = try Self.fast(other)
        let expected = try Self.jwtKit(header), otherExpected = try Self.jwtKit(other)
        #expect(again.fields == first.fields && first.fields == expected.fields)
        #expect(otherHeader.fields == otherExpected.fields && otherHeader.fields != first.fields)
        let remembered = ProofJSONDecoder.headers.value(for: .init(Data(header.utf8))) { _ in nil }
        #expect(remembered?.fields == first.fields, "the second reading came from the memo")
        for refused in [#"{"alg":"ES256""#, #"["ES256"]"#] {
            #expect((try? Self.fast(refused)) == nil)
            #expect((try? Self.fast(refused)) == nil, "\(refused), read again")
        }
    }
}

/// The proof's claims, read without JSONDecoder when every member has its expected type.
@Suite("DPoP proof claims read without JSONDecoder")
struct ProofClaimsDecoderTests {
    typealias Claims = DPoPProofVerifier.Claims

    static func both(_ json: String) -> (fast: Claims?, jwtKit: Claims?) {
        (try? ProofJSONDecoder().decode(Claims.self, from: Data(json.utf8)),
         try? JSONDecoder().decode(Claims.self, from: Data(json.utf8)))
    }

    @Test("claims of every shape read as JSONDecoder reads them, and refused where it refuses them", arguments: [
        #"{"jti":"j","htm":"GET","htu":"https://a.test/x","iat":1800000000,"ath":"h","nonce":"n\"\\\u0001é"}"#,
        #"{"jti":"j","htm":"POST","htu":"https://a.test/x","iat":1800000000.5,"ath":null}"#,
        #"{"jti":"j","htm":"POST","htu":"https://a.test/x","iat":0,"extra":[1,{"a":true}]}"#,
        #"{"jti":"j","htm":"POST","htu":"https://a.test/x","iat":true}"#,
        #"{"jti":"j","htm":"POST","htu":"https://a.test/x","iat":"1800000000"}"#,
        #"{"jti":"j","htm":"POST","htu":"https://a.test/x","iat":1,"ath":5}"#,
        #"{"jti":7,"htm":"POST","htu":"https://a.test/x","iat":1}"#,
        #"{"htm":"POST","htu":"https://a.test/x","iat":1}"#,
        #"["jti"]"#,
        #"{"jti":"j""#,
    ])
    func sameAsJSONDecoder(json: String) {
        let (fast, jwtKit) = Self.both(json)
        #expect((fast == nil) == (jwtKit == nil), "\(json)")
        if let fast, let jwtKit {
            #expect(fast.jti == jwtKit.jti && fast.htm == jwtKit.htm && fast.htu == jwtKit.htu)
            #expect(fast.iat == jwtKit.iat && fast.ath == jwtKit.ath && fast.nonce == jwtKit.nonce)
        }
    }

    @Test("the usual claims are read by JSONSerialization, not handed on")
    func fastPath() throws {
        let object = try #require(try JSONSerialization.jsonObject(
            with: Data(#"{"jti":"j","htm":"GET","htu":"https://a.test/x","iat":1800000000,"ath":"h"}"#.utf8)) as? [String: Any])
        let claims = try #require(Claims(jsonObject: object))
        #expect(claims.iat == 1_800_000_000 && claims.ath == "h" && claims.nonce == nil)
    }
}

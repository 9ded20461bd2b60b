import _CryptoExtras
import Foundation
import JWTKit
import RiderDomain
import RiderOpenIDConnect
import Testing

/// The id_token signature check over jwt-kit, with tokens signed here by jwt-kit itself.
@Suite("id_token signature (jwt-kit)")
struct JWTKitSignatureVerifierTests {
    struct Claims: JWTPayload {
        var sub = "u_1"
        var iss = "https://login.example.test"
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    static let ecKey = ES256PrivateKey()
    static let otherECKey = ES256PrivateKey()

    static func keySet(_ keys: [(kid: String, key: ES256PrivateKey)]) throws -> Data {
        let entries: [[String: String]] = keys.compactMap { kid, key in
            guard let (x, y) = key.publicKey.parameters else { return nil }
            return ["kty": "EC", "crv": "P-256", "alg": "ES256", "kid": kid, "x": x, "y": y]
        }
        return try JSONSerialization.data(withJSONObject: ["keys": entries])
    }

    static func sign(with key: ES256PrivateKey, kid: String?) async throws -> String {
        let keys = await JWTKeyCollection().add(ecdsa: key, kid: kid.map { JWKIdentifier(string: $0) })
        return try await keys.sign(Claims(), kid: kid.map { JWKIdentifier(string: $0) })
    }

    func verify(_ token: String, _ keySet: Data) async throws -> Data {
        try await JWTKitSignatureVerifier().verifiedPayload(of: token, keySet: keySet)
    }

    @Test("an ES256 token signed with a key of the set gives its payload")
    func verifies() async throws {
        let token = try await Self.sign(with: Self.ecKey, kid: "a")
        let payload = try await verify(token, try Self.keySet([("b", Self.otherECKey), ("a", Self.ecKey)]))
        let claims = try JSONDecoder().decode([String: String].self, from: payload)
        #expect(claims["sub"] == "u_1")
    }

    @Test("an RS256 token verifies too, from an RSA key set")
    func rsa() async throws {
        let key = try Insecure.RSA.PrivateKey(backing: try _RSA.Signing.PrivateKey(keySize: .bits2048))
        let keys = await JWTKeyCollection().add(rsa: key, digestAlgorithm: .sha256, kid: "r")
        let token = try await keys.sign(Claims(), kid: "r")
        let parameters = try key.publicKey.getKeyPrimitives()
        func base64URL(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let set = try JSONSerialization.data(withJSONObject: ["keys": [
            ["kty": "RSA", "alg": "RS256", "kid": "r", "n": base64URL(parameters.modulus), "e": base64URL(parameters.publicExponent)],
        ]])
        _ = try await verify(token, set)
    }

    @Test("a kid the set does not hold is an unknown key (the provider may have rotated), not a bad signature")
    func unknownKey() async throws {
        let token = try await Self.sign(with: Self.ecKey, kid: "new")
        await #expect(throws: IDTokenSignatureFailure.unknownKey) {
            try await verify(token, try Self.keySet([("old", Self.otherECKey)]))
        }
    }

    @Test("a token signed with another key under a known kid is an invalid signature")
    func forged() async throws {
        let token = try await Self.sign(with: Self.otherECKey, kid: "a")
        await #expect(throws: IDTokenSignatureFailure.invalidSignature) {
            try await verify(token, try Self.keySet([("a", Self.ecKey)]))
        }
    }

    @Test("alg none and HS256 are refused whatever the set holds")
    func algorithms() async throws {
        let set = try Self.keySet([("a", Self.ecKey)])
        let payload = Data(#"{"sub":"u_1"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        for header in [#"{"alg":"none","kid":"a"}"#, #"{"alg":"HS256","kid":"a"}"#] {
            let head = Data(header.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            await #expect(throws: IDTokenSignatureFailure.unsupportedAlgorithm) {
                try await verify("\(head).\(payload).c2ln", set)
            }
        }
    }

    @Test("something that is not a compact JWS, and a key set that cannot be read, are told apart")
    func malformed() async throws {
        let token = try await Self.sign(with: Self.ecKey, kid: "a")
        await #expect(throws: IDTokenSignatureFailure.malformedToken) {
            try await verify("not a token", try Self.keySet([("a", Self.ecKey)]))
        }
        await #expect(throws: IDTokenSignatureFailure.unusableKeySet) { try await verify(token, Data("<html>".utf8)) }
        await #expect(throws: IDTokenSignatureFailure.unusableKeySet) {
            try await verify(token, Data(#"{"keys":[{"kty":"weird","kid":"a"}]}"#.utf8))
        }
    }

    @Test("a key the library cannot use does not spoil the others; without a kid only a one-key set says which key")
    func tolerantKeySet() async throws {
        let token = try await Self.sign(with: Self.ecKey, kid: "a")
        var set = try JSONSerialization.jsonObject(with: try Self.keySet([("a", Self.ecKey)])) as? [String: [[String: String]]] ?? [:]
        set["keys", default: []].insert(["kty": "weird", "kid": "z"], at: 0)
        _ = try await verify(token, try JSONSerialization.data(withJSONObject: set))

        let anonymous = try await Self.sign(with: Self.ecKey, kid: nil)
        _ = try await verify(anonymous, try Self.keySet([("a", Self.ecKey)]))
        await #expect(throws: IDTokenSignatureFailure.unknownKey) {
            try await verify(anonymous, try Self.keySet([("a", Self.ecKey), ("b", Self.otherECKey)]))
        }
    }
}

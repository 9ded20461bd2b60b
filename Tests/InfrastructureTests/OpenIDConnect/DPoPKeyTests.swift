import Crypto
import Foundation
import JWTKit
import RiderDomain
import RiderOpenIDConnect
import Testing

/// DPoP proofs (RFC 9449 §4) as a server reads them, checked with swift-crypto alone — not with
/// the jwt-kit that signed them — against the key the proof's own header names.
@Suite("DPoP key and proofs")
struct DPoPKeyTests {
    /// A proof's three parts, decoded.
    struct Proof {
        let header: [String: Any]
        let claims: [String: Any]
        let signedPart: Data
        let signature: Data

        init(_ compact: String) throws {
            let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try #require(parts.count == 3)
            let headerBytes = try #require(Self.decode(parts[0]))
            let claimBytes = try #require(Self.decode(parts[1]))
            header = try #require(try JSONSerialization.jsonObject(with: headerBytes) as? [String: Any])
            claims = try #require(try JSONSerialization.jsonObject(with: claimBytes) as? [String: Any])
            signedPart = Data((parts[0] + "." + parts[1]).utf8)
            signature = try #require(Self.decode(parts[2]))
        }

        static func decode(_ part: String) -> Data? {
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return Data(base64Encoded: base64)
        }

        /// Whether the signature verifies with the P-256 key in the header's `jwk`.
        var verifiesWithItsOwnKey: Bool {
            guard let jwk = header["jwk"] as? [String: String], let x = jwk["x"].flatMap(Self.decode),
                  let y = jwk["y"].flatMap(Self.decode),
                  let key = try? P256.Signing.PublicKey(rawRepresentation: x + y),
                  let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: signedPart)
        }
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// base64url (unpadded) of the SHA-256 of `text`: `ath` and the RFC 7638 thumbprint, worked
    /// out here by hand so the key's own encoding is checked, not reused.
    static func sha256Base64URL(_ text: String) -> String {
        Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test("a resource request's proof: dpop+jwt, ES256, the public jwk; htm, htu without query and fragment, iat, jti, ath, nonce")
    func resourceProof() async throws {
        let key = JWTKitDPoPKey()
        let url = try #require(URL(string: "https://api.example.test/riders/me?fields=all#top"))
        let proof = try Proof(try await key.proof(method: "get", url: url, accessToken: "access-1", nonce: "n-7", at: Self.now))

        #expect(proof.header["typ"] as? String == "dpop+jwt")
        #expect(proof.header["alg"] as? String == "ES256")
        #expect(proof.header["jwk"] as? [String: String] == key.publicJWK)
        #expect(key.publicJWK["d"] == nil, "the header carries the public key only")
        #expect(proof.verifiesWithItsOwnKey)
        #expect(proof.claims["htm"] as? String == "GET")
        #expect(proof.claims["htu"] as? String == "https://api.example.test/riders/me")
        #expect(proof.claims["iat"] as? Int == 1_800_000_000)
        #expect(proof.claims["nonce"] as? String == "n-7")
        #expect(proof.claims["ath"] as? String == Self.sha256Base64URL("access-1"))
        #expect(((proof.claims["jti"] as? String)?.count ?? 0) >= 22, "at least 128 random bits")
    }

    @Test("a token request's proof has no ath and no nonce until the server gives one; every proof has its own jti")
    func tokenRequestProof() async throws {
        let key = JWTKitDPoPKey()
        let url = try #require(URL(string: "https://id.example.test/oauth/token"))
        let first = try Proof(try await key.proof(method: "POST", url: url, accessToken: nil, nonce: nil, at: Self.now))
        let second = try Proof(try await key.proof(method: "POST", url: url, accessToken: nil, nonce: nil, at: Self.now))

        #expect(first.claims["ath"] == nil && first.claims["nonce"] == nil)
        #expect(first.claims["jti"] as? String != second.claims["jti"] as? String)
        #expect(first.verifiesWithItsOwnKey && second.verifiesWithItsOwnKey)
    }

    @Test("proofs made on 64 tasks at once by a key just restored: each verifies, has its own jti, and the key's one header")
    func concurrentProofs() async throws {
        let key = try JWTKitDPoPKey(privateKeyRepresentation: JWTKitDPoPKey().privateKeyRepresentation)
        let url = try #require(URL(string: "https://api.example.test/riders/me"))
        let proofs = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<64 {
                group.addTask { try await key.proof(method: "GET", url: url, accessToken: "access-1", nonce: nil, at: Self.now) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(proofs.map { $0.split(separator: ".").first }).count == 1, "one header, the same bytes every time")
        let parsed = try proofs.map(Proof.init)
        #expect(parsed.allSatisfy { $0.verifiesWithItsOwnKey })
        #expect(Set(parsed.compactMap { $0.claims["jti"] as? String }).count == 64)
        #expect(parsed.first?.header["jwk"] as? [String: String] == key.publicJWK)
    }

    /// Strings a proof must carry exactly, whatever is in them: JSON's two escaped characters,
    /// every control character, and text beyond ASCII (U+2028 and U+2029 are legal JSON as is).
    static let awkward = "q\"uote b\\ack\\\\slash /slash \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F} é ☃️ 🚲 \u{2028}\u{2029} end"

    @Test("proofs carry odd nonces and addresses exactly: quotes, backslashes and control characters escaped, Unicode as is; still verified by swift-crypto")
    func escaping() async throws {
        let key = JWTKitDPoPKey()
        let nonces = [Self.awkward, "\"", "\\", "", String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })]
        // Foundation's URL percent-encodes quotes, backslashes and non-ASCII (and punycodes hosts),
        // so those reach htu encoded; the nonces above carry them raw.
        let urls = ["https://api.example.test/rid%22ers/%5C/caf%C3%A9?q=%22#frag", "https://api.example.test/a\"b\\c?q",
                    "https://bücher.example.test/ça\"/x?y", "http://[::1]:8080/a;b=c/d?e?f#g#h"]
        for nonce in nonces {
            for address in urls {
                let url = try #require(URL(string: address))
                let proof = try Proof(try await key.proof(method: "post", url: url, accessToken: "t\"k\\n",
                                                          nonce: nonce, at: Self.now))
                #expect(proof.claims["nonce"] as? String == nonce)
                #expect(proof.claims["htu"] as? String == JWTKitDPoPKey.target(of: url))
                #expect(proof.claims["ath"] as? String == Self.sha256Base64URL("t\"k\\n"))
                #expect(proof.claims["htm"] as? String == "POST")
                #expect(proof.verifiesWithItsOwnKey)
            }
        }
    }

    @Test("htu is the address without query and fragment, the same as URLComponents makes it")
    func targets() throws {
        let cases = [
            "https://api.example.test/riders/me?fields=all#top": "https://api.example.test/riders/me",
            "https://api.example.test": "https://api.example.test",
            "https://api.example.test/?": "https://api.example.test/",
            "https://api.example.test/a#b?c": "https://api.example.test/a",
            "http://user:pw@127.0.0.1:8080/a%3Fb/c%23d?x=1?y=2": "http://user:pw@127.0.0.1:8080/a%3Fb/c%23d",
            "http://[::1]:9/p;q=r": "http://[::1]:9/p;q=r",
            "https://xn--bcher-kva.example.test/%C3%A7a": "https://xn--bcher-kva.example.test/%C3%A7a",
        ]
        for (address, expected) in cases {
            let url = try #require(URL(string: address))
            #expect(JWTKitDPoPKey.target(of: url) == expected, "\(address)")
            var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            components.query = nil
            components.fragment = nil
            #expect(JWTKitDPoPKey.target(of: url) == components.string, "\(address)")
        }
    }

    @Test("jwt-kit's header and claims written without JSONEncoder: the same JSON objects, keys in order, odd strings escaped")
    func compactEncoder() throws {
        var header = JWTHeader()
        header.typ = "dpop+jwt"
        header.alg = "ES256"
        header.jwk = ["kty": .string("EC"), "crv": .string("P-256"), "x": .string(Self.awkward), "y": .string("\\\"")]
        header.fields["nested"] = .array([.int(-42), .bool(true), .bool(false), .null, .string(Self.awkward),
                                         .object(["b": .int(1_800_000_000), "a": .array([])])])
        let encoder = JOSECompactJSONEncoder()
        let written = try encoder.encode(header)
        let text = try #require(String(data: written, encoding: .utf8))
        #expect(text.hasPrefix(#"{"alg":"ES256","jwk":{"crv":"P-256","kty":"EC","x":"q\"uote b\\ack"#), "\(text)")
        #expect(!text.contains("\n") && !text.unicodeScalars.contains { $0.value < 0x20 }, "control characters escaped")
        #expect(try encoder.encode(header) == written, "the same header, the same bytes")
        // Read back by Foundation's parser, the same object JSONEncoder writes.
        func canonical(_ json: Data) throws -> Data {
            try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: json), options: [.sortedKeys])
        }
        #expect(try canonical(written) == canonical(JSONEncoder().encode(header)))
        // A non-integer number is left to JSONEncoder, which decides its text.
        header.fields["ratio"] = .decimal(0.5)
        let decimal = try #require(try JSONSerialization.jsonObject(with: encoder.encode(header)) as? [String: Any])
        #expect(decimal["ratio"] as? Double == 0.5)
    }

    @Test("the key kept in the vault signs as before: same public key, same thumbprint (RFC 7638's example shape)")
    func keptKey() async throws {
        let key = JWTKitDPoPKey()
        let reloaded = try JWTKitDPoPKey(privateKeyRepresentation: key.privateKeyRepresentation)
        #expect(reloaded.publicJWK == key.publicJWK)
        #expect(reloaded.thumbprint == key.thumbprint)
        #expect(key.thumbprint.count == 43, "base64url of 32 bytes, unpadded")
        #expect(JWTKitDPoPKey().thumbprint != key.thumbprint)

        let x = try #require(key.publicJWK["x"]), y = try #require(key.publicJWK["y"])
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        #expect(key.thumbprint == Self.sha256Base64URL(canonical))
    }

    @Test("bytes that are not a P-256 key are a storage error; the key never shows in description or dump")
    func refusalsAndRedaction() throws {
        let refusal = #expect(throws: RiderError.self) { try JWTKitDPoPKey(privateKeyRepresentation: Data([1, 2, 3])) }
        #expect(refusal?.code == .storage, "\(String(describing: refusal))")
        let key = JWTKitDPoPKey()
        let secret = key.privateKeyRepresentation.base64EncodedString()
        var dumped = ""
        dump(key, to: &dumped)
        for shown in [String(describing: key), String(reflecting: key), dumped] {
            #expect(shown.contains(key.thumbprint))
            #expect(!shown.contains(secret) && !shown.contains("PrivateKey"))
        }
    }
}

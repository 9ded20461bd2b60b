import Crypto
import Foundation
import JWTKit

/// A client's DPoP key (RFC 9449), written for these tests with jwt-kit alone: it signs proofs
/// as a client should, and — each on request — as no client should (another method or address,
/// an old `iat`, a chosen `jti`, a private key in the header), so each of the server's checks
/// can be shown refusing its case.
struct ProofKey: Sendable {
    private let key = ES256PrivateKey()

    /// What to get wrong in a proof.
    struct Flaws: Sendable {
        var typ = "dpop+jwt"
        /// The private key's `d` in the header's `jwk`.
        var leaksPrivateKey = false
        /// Another key's `jwk` in the header, so the signature does not verify with it.
        var headerKey: ProofKey?
    }

    /// The public key's coordinates, as the header's `jwk` carries them.
    private var parameters: (x: String, y: String) {
        get throws {
            guard let parameters = key.publicKey.parameters else { throw TestFailure("a P-256 key without coordinates") }
            return parameters
        }
    }

    /// RFC 7638's thumbprint, computed here independently of the server.
    var thumbprint: String {
        get throws {
            let (x, y) = try parameters
            return Data(SHA256.hash(data: Data(#"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#.utf8)))
                .base64URL
        }
    }

    /// A proof for `method` and `url` (taken as `htu` as given), with `ath` for `accessToken`.
    func proof(_ method: String, _ url: String, accessToken: String? = nil, iat: Date = Date(),
               jti: String = UUID().uuidString, nonce: String? = nil, flaws: Flaws = Flaws()) async throws -> String {
        var header = JWTHeader()
        header.typ = flaws.typ
        header.alg = "ES256"
        let (x, y) = try (flaws.headerKey ?? self).parameters
        var jwk: [String: JWTHeaderField] = ["kty": .string("EC"), "crv": .string("P-256"), "x": .string(x), "y": .string(y)]
        if flaws.leaksPrivateKey {
            // Any value will do: the server must refuse the member, not check it.
            jwk["d"] = .string(Data(repeating: 7, count: 32).base64URL)
        }
        header.jwk = jwk
        let claims = Claims(jti: jti, htm: method, htu: url, iat: Int(iat.timeIntervalSince1970),
                            ath: accessToken.map { Data(SHA256.hash(data: Data($0.utf8))).base64URL }, nonce: nonce)
        let keys = await JWTKeyCollection().add(ecdsa: key)
        return try await keys.sign(claims, header: header)
    }

    private struct Claims: JWTPayload {
        let jti: String
        let htm: String
        let htu: String
        let iat: Int
        let ath: String?
        let nonce: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

extension Data {
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

import Crypto
import Foundation
import JWTKit
import RiderDomain
import Synchronization

/// A DPoP key (RFC 9449) over jwt-kit and swift-crypto: an ES256 key pair, proofs signed by
/// jwt-kit with `typ: dpop+jwt` and the public `jwk` in the header.
package struct JWTKitDPoPKey: DPoPKey {
    private let key: P256.Signing.PrivateKey
    /// The same key as jwt-kit takes it, made once: every proof signs with it.
    private let signingKey: ES256PrivateKey
    /// The proof header's segment and jwt-kit's ES256 algorithm for ``signingKey``, made once
    /// per key rather than per proof.
    private let signer: Signer
    package let publicJWK: [String: String]
    package let thumbprint: String

    /// A new key pair.
    package init() {
        self.init(key: P256.Signing.PrivateKey())
    }

    /// The key pair kept in the vault.
    /// - Throws: `RiderError.storage(_:)` when the bytes are not a P-256 private key.
    package init(privateKeyRepresentation: Data) throws {
        do {
            self.init(key: try P256.Signing.PrivateKey(rawRepresentation: privateKeyRepresentation))
        } catch {
            throw RiderError.storage("the session's proof-of-possession key is not a P-256 key", underlying: error)
        }
    }

    private init(key: P256.Signing.PrivateKey) {
        self.key = key
        // The same bytes, so this cannot fail; `try!` stays out of outside data all the same.
        signingKey = (try? ES256PrivateKey(backing: key)) ?? ES256PrivateKey()
        // x and y are the uncompressed point's halves (RFC 7518 §6.2.1), each 32 bytes.
        let point = key.publicKey.rawRepresentation
        let x = Self.base64URL(point.prefix(32)), y = Self.base64URL(point.suffix(32))
        publicJWK = ["kty": "EC", "crv": "P-256", "x": x, "y": y]
        // RFC 7638 §3.2: the required members only, in lexicographic order, no whitespace.
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        thumbprint = Self.base64URL(Data(SHA256.hash(data: Data(canonical.utf8))))
        signer = Signer(publicJWK: publicJWK)
    }

    package var privateKeyRepresentation: Data { key.rawRepresentation }

    package func proof(method: String, url: URL, accessToken: String?, nonce: String?,
                       at now: Date) async throws -> String {
        // 128 random bits from two draws of the system generator (getrandom), not sixteen.
        var random = SystemRandomNumberGenerator()
        let jti = withUnsafeBytes(of: (random.next() as UInt64, random.next() as UInt64)) { Base64URL.string($0) }
        let claims = Claims(jti: jti, htm: Self.uppercased(method), htu: Self.target(of: url),
                            iat: Int(now.timeIntervalSince1970), ath: accessToken.map(signer.tokenHash), nonce: nonce)
        return try signer.sign(claims, with: try await signer.algorithm(for: signingKey))
    }

    /// What every proof of the key shares: its header's base64url segment (the header is the
    /// same for every proof), jwt-kit's ES256 algorithm holding the key, and the last access
    /// token's `ath`, since a session sends the same token until it is renewed.
    ///
    /// jwt-kit serializes the claims (`DefaultJWTSerializer`, writing them with
    /// ``JOSECompactJSONEncoder``) and signs (its ES256 `JWTAlgorithm`, the one its key collection
    /// signs with: SHA-256 of the signing input, swift-crypto's P-256 signature, `r‖s`); only the
    /// compact serialization's three segments are joined here (RFC 7515 §7.1), as jwt-kit's
    /// serializer joins them. Not through the key collection's `sign`: that collection is an
    /// actor, and each proof entered it and left it again for jwt-kit's serializer — with 32
    /// requests at once, every proof queued for the one actor, and each hop cost a thread wake-up.
    private final class Signer: Sendable {
        let header: JWTHeader
        /// base64url of the header's JSON (``JOSECompactJSONEncoder``: members sorted, so the
        /// same bytes every time), then `.`.
        private let headerSegment: [UInt8]
        private let serializer = DefaultJWTSerializer(jsonEncoder: JOSECompactJSONEncoder())
        /// jwt-kit's ES256 algorithm for the key, from its key collection on the first proof.
        private let madeAlgorithm = Mutex<(any JWTAlgorithm)?>(nil)
        private let lastHash = Mutex<(token: String, hash: String)?>(nil)

        init(publicJWK: [String: String]) {
            var header = JWTHeader()
            header.typ = "dpop+jwt"
            header.alg = "ES256"
            header.jwk = publicJWK.mapValues { JWTHeaderField.string($0) }
            self.header = header
            // Strings only, which the encoder writes itself: this cannot fail.
            let json = (try? JOSECompactJSONEncoder().encode(header)) ?? Data()
            headerSegment = Base64URL.encode(json) + [UInt8(ascii: ".")]
        }

        /// jwt-kit's ES256 algorithm holding `key`: one trip through a key collection, the first time.
        func algorithm(for key: ES256PrivateKey) async throws -> any JWTAlgorithm {
            if let made = madeAlgorithm.withLock({ $0 }) { return made }
            // Two first proofs at once may both make it: the same key, harmless.
            let made = try await JWTKeyCollection().add(ecdsa: key).getKey()
            madeAlgorithm.withLock { $0 = made }
            return made
        }

        /// The compact JWS of `claims` under the key's header, signed by `algorithm`.
        func sign(_ claims: some JWTPayload, with algorithm: any JWTAlgorithm) throws -> String {
            let payload = try serializer.serialize(claims, header: header)
            var token = headerSegment
            token.reserveCapacity(headerSegment.count + payload.count + 1 + 86)
            token.append(contentsOf: payload)
            let signature = try algorithm.sign(token)
            token.append(UInt8(ascii: "."))
            token.append(contentsOf: Base64URL.encode(signature))
            return String(decoding: token, as: UTF8.self)
        }

        /// `ath` (RFC 9449 §4.2): base64url of the token's SHA-256, worked out once per token.
        func tokenHash(_ token: String) -> String {
            if let last = lastHash.withLock({ $0 }), last.token == token { return last.hash }
            let hash = Base64URL.string(SHA256.hash(data: Data(token.utf8)))
            lastHash.withLock { $0 = (token, hash) }
            return hash
        }
    }

    /// `method` in upper case (`htm`), without a new string when it already is (as it nearly always is).
    private static func uppercased(_ method: String) -> String {
        method.utf8.contains(where: { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) ? method.uppercased() : method
    }

    /// `url` without query and fragment (RFC 9449 §4.2, `htu`). An absolute URL's string is cut
    /// at its first `?` or `#` — neither can appear unencoded before the query or fragment they
    /// start — rather than taken apart and put together again by `URLComponents`.
    package static func target(of url: URL) -> String {
        if url.baseURL == nil {
            let string = url.absoluteString
            guard let cut = string.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else {
                return string
            }
            return String(string[..<cut])
        }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.query = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    private static func base64URL(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// RFC 9449 §4.2's claims; a proof is checked by the server, never here. Written by
    /// ``writeJSON(to:)`` (``JOSECompactJSONEncoder``); `Codable` gives the same object.
    private struct Claims: JWTPayload, JOSEDirectJSON {
        let jti: String
        let htm: String
        let htu: String
        let iat: Int
        let ath: String?
        let nonce: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {}

        func writeJSON(to writer: inout JOSEJSONWriter) {
            writer.beginObject()
            writer.member("jti", base64URL: jti.utf8)
            writer.member("htm", htm)
            writer.member("htu", htu)
            writer.member("iat", iat)
            if let ath { writer.member("ath", base64URL: ath.utf8) }
            if let nonce { writer.member("nonce", nonce) }
            writer.endObject()
        }
    }
}

extension JWTKitDPoPKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The thumbprint only: the private key is never printed, dumped or shown by a debugger.
    package var description: String { "DPoPKey(thumbprint: \(thumbprint))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["thumbprint": thumbprint]) }
}

/// Makes ``JWTKitDPoPKey``s.
package struct JWTKitDPoPKeyFactory: DPoPKeyFactory {
    package init() {}

    package func newKey() -> any DPoPKey {
        JWTKitDPoPKey()
    }

    package func key(restoring privateKeyRepresentation: Data) throws -> any DPoPKey {
        try JWTKitDPoPKey(privateKeyRepresentation: privateKeyRepresentation)
    }
}

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
    /// jwt-kit's signer holding ``signingKey``, made once per key rather than per proof (an actor
    /// made and filled for each proof cost as much as the rest of the proof's JSON).
    private let signer = Signer()
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
    }

    package var privateKeyRepresentation: Data { key.rawRepresentation }

    package func proof(method: String, url: URL, accessToken: String?, nonce: String?,
                       at now: Date) async throws -> String {
        var header = JWTHeader()
        header.typ = "dpop+jwt"
        header.alg = "ES256"
        header.jwk = publicJWK.mapValues { JWTHeaderField.string($0) }
        let claims = Claims(
            jti: Self.base64URL(Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })),
            htm: method.uppercased(), htu: Self.target(of: url), iat: Int(now.timeIntervalSince1970),
            ath: accessToken.map { Self.base64URL(Data(SHA256.hash(data: Data($0.utf8)))) }, nonce: nonce)
        return try await signer.keys(adding: signingKey).sign(claims, header: header)
    }

    /// A key collection filled once with the key, on the first proof.
    private final class Signer: Sendable {
        private let collection = JWTKeyCollection()
        private let filled = Mutex(false)

        func keys(adding key: ES256PrivateKey) async -> JWTKeyCollection {
            // Two first proofs at once may both add it: the same key under no kid, harmless.
            if !filled.withLock({ $0 }) {
                await collection.add(ecdsa: key)
                filled.withLock { $0 = true }
            }
            return collection
        }
    }

    /// `url` without query and fragment (RFC 9449 §4.2, `htu`).
    package static func target(of url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.query = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    private static func base64URL(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// RFC 9449 §4.2's claims; a proof is checked by the server, never here.
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

import Foundation
import JWTKit
import RiderDomain

/// Verifies id_token signatures with jwt-kit against the provider's JWKS.
///
/// Stricter than the library's defaults where an id_token needs it: only asymmetric algorithms
/// (a key set is public, so `none` or an HMAC "signed" with a published key proves nothing), and
/// a `kid` the set does not hold is an unknown key — jwt-kit would fall back to its default key,
/// which hides a key rotation behind a signature failure.
package struct JWTKitSignatureVerifier: IDTokenSignatureVerifier {
    /// RFC 7518's asymmetric algorithms, and EdDSA (RFC 8037).
    static let acceptedAlgorithms: Set<String> = [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA",
    ]

    package init() {}

    package func verifiedPayload(of token: String, keySet: Data) async throws -> Data {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.base64URLDecoded(parts[0]),
              let header = try? JSONDecoder().decode(Header.self, from: headerData),
              let payload = Self.base64URLDecoded(parts[1])
        else { throw IDTokenSignatureFailure.malformedToken }
        guard Self.acceptedAlgorithms.contains(header.alg) else { throw IDTokenSignatureFailure.unsupportedAlgorithm }

        guard let set = try? JSONDecoder().decode(KeySet.self, from: keySet) else {
            throw IDTokenSignatureFailure.unusableKeySet
        }
        let collection = JWTKeyCollection()
        var added: [String] = []
        // One key the library cannot use (another key type, no kid) must not spoil the others.
        for key in set.keys {
            guard let jwk = key.jwk, let kid = jwk.keyIdentifier?.string,
                  (try? await collection.add(jwk: jwk)) != nil else { continue }
            added.append(kid)
        }
        guard !added.isEmpty else { throw IDTokenSignatureFailure.unusableKeySet }
        if let kid = header.kid {
            guard added.contains(kid) else { throw IDTokenSignatureFailure.unknownKey }
        } else if added.count > 1 {
            // Without a kid only a one-key set says which key signed.
            throw IDTokenSignatureFailure.unknownKey
        }
        do {
            _ = try await collection.verify(token, as: UncheckedClaims.self)
        } catch let error as JWTError where error.errorType == .malformedToken {
            throw IDTokenSignatureFailure.malformedToken
        } catch {
            throw IDTokenSignatureFailure.invalidSignature
        }
        return payload
    }

    private struct Header: Decodable {
        var alg: String
        var kid: String?
    }

    /// The key set, each key read on its own, so one the library cannot read is skipped, not fatal.
    private struct KeySet: Decodable {
        struct Key: Decodable {
            var jwk: JWK?
            init(from decoder: any Decoder) throws { jwk = try? JWK(from: decoder) }
        }
        var keys: [Key]
    }

    /// The claims are the sign-in's to check (the Application layer's IDTokenClaims); the library
    /// is asked for the signature only.
    private struct UncheckedClaims: JWTPayload {
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    private static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

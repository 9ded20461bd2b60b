import Foundation
import RiderDomain

/// The provider's signing keys (its JWKS), fetched when first needed and again when a token
/// names a key the copy does not hold — the provider rotated its keys — at most once per token,
/// so a token with a made-up `kid` cannot make RiderKit fetch without end.
package actor ProviderKeys {
    private let verifier: any IDTokenSignatureVerifier
    private var keySet: Data?

    package init(verifier: any IDTokenSignatureVerifier) {
        self.verifier = verifier
    }

    /// The payload of `token`, its signature verified with the provider's keys.
    /// - Parameter fetch: reads the JWKS document from the provider.
    /// - Throws: `RiderError.untrustedAuthorizationResponse(_:)` when the signature does not
    ///   verify; what `fetch` throws.
    package func verifiedPayload(of token: String, fetch: @Sendable () async throws -> Data) async throws -> Data {
        let fresh = keySet == nil
        let keys: Data
        if let keySet {
            keys = keySet
        } else {
            keys = try await fetch()
        }
        keySet = keys
        do {
            return try await verifier.verifiedPayload(of: token, keySet: keys)
        } catch IDTokenSignatureFailure.unknownKey where !fresh {
            let reloaded = try await fetch()
            keySet = reloaded
            do {
                return try await verifier.verifiedPayload(of: token, keySet: reloaded)
            } catch let failure as IDTokenSignatureFailure {
                throw Self.error(failure)
            }
        } catch let failure as IDTokenSignatureFailure {
            throw Self.error(failure)
        }
    }

    private static func error(_ failure: IDTokenSignatureFailure) -> RiderError {
        let what = switch failure {
        case .unknownKey: "is signed with a key the provider does not publish"
        case .invalidSignature: "has a signature that does not verify with the provider's keys"
        case .unsupportedAlgorithm: "is signed with an algorithm RiderKit does not accept (none, or a shared secret)"
        case .malformedToken: "is not a signed JSON Web Token"
        case .unusableKeySet: "cannot be checked: the provider's key set (jwks_uri) cannot be read"
        }
        return .untrustedAuthorizationResponse("the id_token " + what)
    }
}

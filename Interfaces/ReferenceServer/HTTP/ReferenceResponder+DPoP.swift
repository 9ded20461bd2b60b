import Foundation
import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// The proof a token request carries in its `DPoP` header, checked (RFC 9449 §5).
    /// - Returns: the thumbprint of the proof's key, which the tokens are then bound to; `nil`
    ///   when DPoP is off (the header is ignored, as by a server that never heard of it) or the
    ///   request sent no proof where proofs are only supported.
    /// - Throws: `invalid_dpop_proof` for a proof that fails a check, more than one proof, or
    ///   none where DPoP is required.
    func tokenRequestProof(_ request: Request) async throws(TokenEndpointError) -> String? {
        guard dpop != .off else { return nil }
        let proofs = Self.dpopProofs(of: request)
        guard let proof = proofs.first else {
            guard dpop != .required else { throw .invalidDPoPProof("this server requires a DPoP proof with every token request") }
            return nil
        }
        guard proofs.count == 1 else { throw .invalidDPoPProof("send one DPoP header, not several") }
        do {
            return try await self.proofs.check(proof, method: request.method.rawValue,
                                               targets: proofTargets(of: request, origin: await store.origin),
                                               accessToken: nil).thumbprint
        } catch {
            throw error.wantsNonce ? .useDPoPNonce(error.reason) : .invalidDPoPProof(error.reason)
        }
    }

    /// The proof of a request to the rider API that carries `accessToken` as
    /// `Authorization: DPoP` (RFC 9449 §7), sent to the server at `origin` (the store's).
    /// - Returns: the thumbprint of the proof's key, which must be the one the token is bound to.
    /// - Throws: ``DPoPProofVerifier/Refusal`` when there is no proof, several, or one that fails a check.
    func resourceRequestProof(_ request: Request, accessToken: String,
                              origin: String) async throws(DPoPProofVerifier.Refusal) -> String {
        let proofs = Self.dpopProofs(of: request)
        guard let proof = proofs.first else {
            throw DPoPProofVerifier.Refusal(reason: "a DPoP-bound access token needs a DPoP proof in a DPoP header")
        }
        guard proofs.count == 1 else { throw DPoPProofVerifier.Refusal(reason: "send one DPoP header, not several") }
        return try await self.proofs.check(proof, method: request.method.rawValue, targets: proofTargets(of: request, origin: origin),
                                           accessToken: accessToken).thumbprint
    }

    /// Every `DPoP` header of `request`.
    private static func dpopProofs(of request: Request) -> [String] {
        request.headers.filter { $0.name.canonicalName == "dpop" }.map(\.value)
    }

    /// The addresses a client may have sent `request` to, normalized as `htu` is compared: the
    /// server's own origin with the request's path, and — when the request names a loopback
    /// `Host` on the server's own port — that `Host` too, since `localhost`, `127.0.0.1` and
    /// `[::1]` all reach a loopback server and the client signs the one it used. Any other
    /// `Host` is not taken on the request's word: a proof made for another server must not pass.
    /// `origin` is the store's, which the caller has read already.
    func proofTargets(of request: Request, origin: String) -> Set<String> {
        let address = ProofAddress(origin: origin, authority: request.head.authority, path: request.uri.path)
        return Self.recentProofTargets.value(for: address) { address in
            var targets = Set([address.origin + address.path].compactMap(DPoPProofVerifier.normalizedTarget))
            if let authority = address.authority, LoopbackAuthority.accepts(authority),
               let named = DPoPProofVerifier.normalizedTarget("http://\(authority)\(address.path)"),
               URLComponents(string: named)?.port == URLComponents(string: address.origin)?.port {
                targets.insert(named)
            }
            return targets
        }
    }

    /// What ``proofTargets(of:)`` depends on.
    struct ProofAddress: Hashable, Sendable {
        let origin: String
        let authority: String?
        let path: String
    }

    /// ``proofTargets(of:)`` of the addresses seen lately: a client calls the same few, and
    /// working the set out again takes several `URLComponents` per request.
    static let recentProofTargets = Memo<ProofAddress, Set<String>>()
}

extension HTTPField.Name {
    /// RFC 9449 §8: the nonce a server wants in the client's next proofs. A valid token, so
    /// the initializer never answers `nil`; the optional is only its signature.
    static let dpopNonce = HTTPField.Name("DPoP-Nonce")
}

import Foundation
import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// Headers that keep personal data out of shared and private caches.
    static let noStore: HTTPFields = [.cacheControl: "no-store"]

    /// The user whose access token the request carries: `Authorization: Bearer <token>` (RFC 6750
    /// §2.1) for a bearer token, `Authorization: DPoP <token>` with a proof of the key it is bound
    /// to for a DPoP-bound one (RFC 9449 §7). A bound token sent as `Bearer` is refused: on its
    /// own it proves nothing, which is the point of binding it.
    /// - Throws: A `401` problem with `WWW-Authenticate` when there is no usable token.
    func authenticate(_ request: Request) async throws -> ReferenceUser {
        guard let header = request.headers[.authorization] else {
            throw unauthorized(detail: "This resource needs an access token: send Authorization: Bearer <token>.")
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let scheme = parts.first?.lowercased()
        let proven = scheme == "dpop" && dpop != .off
        guard scheme == "bearer" || proven else {
            throw unauthorized(detail: dpop == .off ? "Only the Bearer authorization scheme is accepted."
                                                    : "Only the Bearer and DPoP authorization schemes are accepted.")
        }
        let token = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch await store.check(accessToken: token) {
        case .valid(let user, let jkt?):
            guard proven else {
                throw invalidToken(detail: "The access token is bound to a DPoP key: send it as Authorization: DPoP <token> with a DPoP proof.",
                                   dpop: true)
            }
            let thumbprint: String
            do {
                thumbprint = try await resourceRequestProof(request, accessToken: token)
            } catch {
                throw error.wantsNonce ? nonceWanted(detail: error.reason) : invalidProof(detail: error.reason)
            }
            guard ConstantTime.equals(thumbprint, jkt) else {
                throw invalidProof(detail: "the DPoP proof is signed by another key than the one the access token is bound to")
            }
            return user
        case .valid(let user, nil):
            guard !proven else {
                throw invalidToken(detail: "The access token is not bound to a DPoP key: send it as Authorization: Bearer <token>.",
                                   dpop: true)
            }
            return user
        case .expired:
            throw invalidToken(detail: "The access token has expired; refresh it.", dpop: proven)
        case .unknown:
            throw invalidToken(detail: "The access token is unknown or has been revoked.", dpop: proven)
        }
    }

    /// The challenges of a `401`: Bearer's, and DPoP's with its algorithm when DPoP is on
    /// (RFC 9449 §7.1), so a client can tell which schemes the API takes.
    private var challenges: String {
        dpop == .off ? #"Bearer realm="rider""# : #"Bearer realm="rider", DPoP algs="ES256""#
    }

    private func unauthorized(detail: String) -> APIProblem {
        APIProblem(
            status: .unauthorized,
            slug: "unauthorized",
            title: "Unauthorized",
            detail: detail,
            headers: [.wwwAuthenticate: challenges]
        )
    }

    /// `error="invalid_token"` under the scheme the token was sent with (or should have been).
    private func invalidToken(detail: String, dpop: Bool) -> APIProblem {
        let challenge = dpop
            ? #"DPoP algs="ES256", error="invalid_token", error_description="\#(detail)""#
            : #"Bearer realm="rider", error="invalid_token", error_description="\#(detail)""#
        return APIProblem(
            status: .unauthorized,
            slug: "invalid-token",
            title: "Invalid token",
            detail: detail,
            headers: [.wwwAuthenticate: challenge]
        )
    }

    /// RFC 9449 §9: the proof lacks the server's current nonce, which `DPoP-Nonce` (added to
    /// every response while nonces are on) carries.
    private func nonceWanted(detail: String) -> APIProblem {
        APIProblem(
            status: .unauthorized,
            slug: "use-dpop-nonce",
            title: "DPoP nonce required",
            detail: "The DPoP proof needs the server's nonce: \(detail).",
            headers: [.wwwAuthenticate: #"DPoP algs="ES256", error="use_dpop_nonce", error_description="\#(detail)""#]
        )
    }

    /// RFC 9449 §7.1: the DPoP proof is missing or fails a check.
    private func invalidProof(detail: String) -> APIProblem {
        APIProblem(
            status: .unauthorized,
            slug: "invalid-dpop-proof",
            title: "Invalid DPoP proof",
            detail: "The DPoP proof was refused: \(detail).",
            headers: [.wwwAuthenticate: #"DPoP algs="ES256", error="invalid_dpop_proof", error_description="\#(detail)""#]
        )
    }
}

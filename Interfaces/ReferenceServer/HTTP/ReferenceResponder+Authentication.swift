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
        try await authorize(request, at: .api).user
    }

    /// What an access token accepted at a resource carries.
    struct Authorized: Sendable {
        let user: ReferenceUser
        /// The scope it was granted.
        let scope: String?
        /// Sent as `DPoP` with a proof of its key.
        let proven: Bool
    }

    /// ``authenticate(_:)`` at `resource`: the token must also be for it — issued without a
    /// `resource` (good anywhere, as before RFC 8707) or for this one; a token for the other
    /// resource is `invalid_token` (RFC 8707 §2, RFC 6750 §3.1).
    /// - Parameter anyAudience: Take a token for any resource: for `/userinfo`, which belongs to
    ///   the authorization server, so a sign-in for `/admin` can still name its account.
    /// - Throws: A `401` problem whose challenges name `resource`'s metadata.
    func authorize(_ request: Request, at resource: ProtectedResource, anyAudience: Bool = false) async throws -> Authorized {
        // RFC 9728 §5.1: every challenge names the resource's metadata, so a client given only
        // the resource's address can find who signs it in.
        // The store's origin once: each read is a trip into the store's actor.
        let origin = await store.origin
        let metadata = resource.metadataURL(origin: origin)
        let identifier = resource.identifier(origin: origin)
        func forThisResource(_ audience: String?, proven: Bool) throws {
            guard !anyAudience, let audience, audience != identifier else { return }
            throw invalidToken(detail: "The access token is for another resource (\(audience)), not \(identifier).",
                               dpop: proven, metadata: metadata)
        }
        guard let header = request.headers[.authorization] else {
            throw unauthorized(detail: "This resource needs an access token: send Authorization: Bearer <token>.",
                               metadata: metadata)
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let scheme = parts.first?.lowercased()
        let proven = scheme == "dpop" && dpop != .off
        guard scheme == "bearer" || proven else {
            throw unauthorized(detail: dpop == .off ? "Only the Bearer authorization scheme is accepted."
                                                    : "Only the Bearer and DPoP authorization schemes are accepted.",
                               metadata: metadata)
        }
        let token = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch await store.check(accessToken: token) {
        case .valid(let user, let jkt?, let audience, let scope):
            guard proven else {
                throw invalidToken(detail: "The access token is bound to a DPoP key: send it as Authorization: DPoP <token> with a DPoP proof.",
                                   dpop: true, metadata: metadata)
            }
            let thumbprint: String
            do {
                thumbprint = try await resourceRequestProof(request, accessToken: token, origin: origin)
            } catch {
                throw error.wantsNonce ? nonceWanted(detail: error.reason, metadata: metadata)
                                       : invalidProof(detail: error.reason, metadata: metadata)
            }
            guard ConstantTime.equals(thumbprint, jkt) else {
                throw invalidProof(detail: "the DPoP proof is signed by another key than the one the access token is bound to",
                                   metadata: metadata)
            }
            try forThisResource(audience, proven: true)
            return Authorized(user: user, scope: scope, proven: true)
        case .valid(let user, nil, let audience, let scope):
            guard !proven else {
                throw invalidToken(detail: "The access token is not bound to a DPoP key: send it as Authorization: Bearer <token>.",
                                   dpop: true, metadata: metadata)
            }
            try forThisResource(audience, proven: false)
            return Authorized(user: user, scope: scope, proven: false)
        case .expired:
            throw invalidToken(detail: "The access token has expired; refresh it.", dpop: proven, metadata: metadata)
        case .unknown:
            throw invalidToken(detail: "The access token is unknown or has been revoked.", dpop: proven, metadata: metadata)
        }
    }

    /// The Bearer challenge every `401` carries: the realm and where the API's metadata is
    /// (RFC 9728 §5.1), with `extra` auth-params after them.
    private func bearer(_ metadata: String, _ extra: String = "") -> String {
        #"Bearer realm="rider", resource_metadata=\#(Self.quoted(metadata))"# + extra
    }

    /// The DPoP challenge with its algorithm (RFC 9449 §7.1) and `extra` auth-params.
    private func dpopChallenge(_ metadata: String, _ extra: String = "") -> String {
        #"DPoP algs="ES256", resource_metadata=\#(Self.quoted(metadata))"# + extra
    }

    /// `, error="…", error_description="…"` (RFC 6750 §3).
    private static func error(_ code: String, _ detail: String) -> String {
        ", error=\(quoted(code)), error_description=\(quoted(detail))"
    }

    /// `text` as a quoted-string (RFC 9110 §5.6.4): `"` and `\` escaped, controls left out.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text.unicodeScalars where character.value >= 0x20 && character.value != 0x7F {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.unicodeScalars.append(character)
        }
        return result + "\""
    }

    /// The challenges of a `401` without a usable token: Bearer's, and DPoP's when DPoP is on,
    /// so a client can tell which schemes the API takes.
    private func challenges(_ metadata: String) -> String {
        dpop == .off ? bearer(metadata) : bearer(metadata) + ", " + dpopChallenge(metadata)
    }

    private func unauthorized(detail: String, metadata: String) -> APIProblem {
        APIProblem(
            status: .unauthorized,
            slug: "unauthorized",
            title: "Unauthorized",
            detail: detail,
            headers: [.wwwAuthenticate: challenges(metadata)]
        )
    }

    /// `error="invalid_token"` under the scheme the token was sent with (or should have been);
    /// a DPoP one first, then the Bearer challenge that names the metadata.
    private func invalidToken(detail: String, dpop: Bool, metadata: String) -> APIProblem {
        let error = Self.error("invalid_token", detail)
        let challenge = dpop ? dpopChallenge(metadata, error) + ", " + bearer(metadata) : bearer(metadata, error)
        return APIProblem(
            status: .unauthorized,
            slug: "invalid-token",
            title: "Invalid token",
            detail: detail,
            headers: [.wwwAuthenticate: challenge]
        )
    }

    /// RFC 6750 §3.1: the token is good but lacks `scope`, which the challenge names (with the
    /// resource's metadata, RFC 9728 §5.1) so a client can sign in again asking for it.
    func insufficientScope(_ scope: String, detail: String, proven: Bool, metadata: String) -> APIProblem {
        let error = Self.error("insufficient_scope", detail) + ", scope=\(Self.quoted(scope))"
        return APIProblem(
            status: .forbidden,
            slug: "insufficient-scope",
            title: "Insufficient scope",
            detail: detail,
            headers: [.wwwAuthenticate: proven ? dpopChallenge(metadata, error) : bearer(metadata, error)]
        )
    }

    /// RFC 9449 §9: the proof lacks the server's current nonce, which `DPoP-Nonce` (added to
    /// every response while nonces are on) carries.
    private func nonceWanted(detail: String, metadata: String) -> APIProblem {
        APIProblem(
            status: .unauthorized,
            slug: "use-dpop-nonce",
            title: "DPoP nonce required",
            detail: "The DPoP proof needs the server's nonce: \(detail).",
            headers: [.wwwAuthenticate: dpopChallenge(metadata, Self.error("use_dpop_nonce", detail)) + ", " + bearer(metadata)]
        )
    }

    /// RFC 9449 §7.1: the DPoP proof is missing or fails a check.
    private func invalidProof(detail: String, metadata: String) -> APIProblem {
        APIProblem(
            status: .unauthorized,
            slug: "invalid-dpop-proof",
            title: "Invalid DPoP proof",
            detail: "The DPoP proof was refused: \(detail).",
            headers: [.wwwAuthenticate: dpopChallenge(metadata, Self.error("invalid_dpop_proof", detail)) + ", " + bearer(metadata)]
        )
    }
}

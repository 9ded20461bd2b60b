import Foundation
import RiderDomain

/// DPoP (RFC 9449) for the client: the proof each request of a key-bound session carries, which
/// key a sign-in binds its tokens to, and the servers' latest nonces.
///
/// A proof is signed for one request — its method, its address without query and fragment, the
/// access token it carries (resource requests), the server's latest `DPoP-Nonce` — so a token
/// copied out of a log or a proxy is useless without the session's key, which never leaves the
/// vault. A server that wants a fresh nonce says so once (a token endpoint's `400
/// use_dpop_nonce`, a resource's `401` with `WWW-Authenticate: DPoP error="use_dpop_nonce"`) and
/// the request is sent once more with it; the nonce is kept per server for the next request.
package struct DPoP: Sendable {
    private let keys: any DPoPKeyFactory
    private let nonces = Nonces()
    /// The last key restored, by its bytes: a session's every request signs with the same key,
    /// and restoring it (deriving its public half) costs more than the proof's signature.
    private let restored = LastKey()
    private let clock: any Clock

    /// - Parameters:
    ///   - keys: makes a sign-in's key and restores a session's.
    ///   - clock: each proof's `iat`.
    package init(keys: any DPoPKeyFactory, clock: any Clock) {
        self.keys = keys
        self.clock = clock
    }

    /// A new key for a sign-in that binds its tokens.
    package func newKey() -> any DPoPKey {
        keys.newKey()
    }

    /// The key `session`'s tokens are bound to; `nil` for a bearer session.
    /// - Throws: `RiderError.storage(_:)` when the vault kept something that is not a key.
    package func key(of session: Session) throws -> (any DPoPKey)? {
        guard let bytes = session.proofKey else { return nil }
        if let known = restored.key(for: bytes) { return known }
        let key = try keys.key(restoring: bytes)
        restored.keep(key, for: bytes)
        return key
    }

    /// A proof for one request a program sends itself with `session`'s token (`rider session
    /// token --dpop-proof`); `nil` for a bearer session.
    /// - Throws: `RiderError.storage(_:)` when the session's key cannot be read.
    package func proof(for session: Session, method: String, url: URL) async throws -> String? {
        guard let key = try key(of: session) else { return nil }
        return try await key.proof(method: method, url: url, accessToken: session.accessToken, nonce: nonces[url],
                                   at: clock.now)
    }

    /// The thumbprint of the key `session` is bound to (RFC 7638): safe to show; `nil` for a
    /// bearer session or an unreadable key.
    package func thumbprint(of session: Session) -> String? {
        (try? key(of: session))??.thumbprint
    }

    /// `request` with a fresh proof in its `DPoP` header, made with `key` for `accessToken` (on a
    /// resource request) and the latest nonce of the request's server.
    package func proving(_ request: HTTPRequest, with key: any DPoPKey, accessToken: String?) async throws -> HTTPRequest {
        try await proving(request, with: key, accessToken: accessToken, nonce: nonces[request.url])
    }

    private func proving(_ request: HTTPRequest, with key: any DPoPKey, accessToken: String?,
                         nonce: String?) async throws -> HTTPRequest {
        var request = request
        request.headers["DPoP"] = try await key.proof(method: request.method.rawValue, url: request.url,
                                                      accessToken: accessToken, nonce: nonce, at: clock.now)
        return request
    }

    /// Sends `request` proven with `key`; when the server asks for a nonce, sends it once more
    /// with the nonce it gave. Every `DPoP-Nonce` a server sends is kept for its next request.
    /// - Parameters:
    ///   - accessToken: the token the request carries (resource requests), for the proof's `ath`.
    ///   - send: sends one attempt.
    package func send(_ request: HTTPRequest, with key: any DPoPKey, accessToken: String?,
                      through send: (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        // The server's origin once per request: parsing the address is a good part of a proof's cost.
        let origin = RedirectMiddleware.origin(of: request.url)
        let hadNonce = nonces[origin: origin]
        let response = try await send(try await proving(request, with: key, accessToken: accessToken, nonce: hadNonce))
        guard let given = Self.nonce(in: response) else { return response }
        nonces[origin: origin] = given
        guard given != hadNonce, Self.asksForNonce(response) else { return response }
        return try await send(try await proving(request, with: key, accessToken: accessToken, nonce: given))
    }

    /// Keeps the `DPoP-Nonce` a response from `url`'s server carries.
    package func noteNonce(of response: HTTPResponse, from url: URL) {
        if let nonce = Self.nonce(in: response) { nonces[url] = nonce }
    }

    /// The usable `DPoP-Nonce` `response` carries, if any.
    private static func nonce(in response: HTTPResponse) -> String? {
        guard let nonce = response.headers["DPoP-Nonce"], !nonce.isEmpty, nonce.utf8.count <= 1024 else { return nil }
        return nonce
    }

    /// Whether `response` is a server's demand for a proof with its nonce: a token endpoint's
    /// `400` with `error: use_dpop_nonce` (RFC 9449 §8), or a resource's `401` whose
    /// `WWW-Authenticate` says `error="use_dpop_nonce"` (§9).
    package static func asksForNonce(_ response: HTTPResponse) -> Bool {
        switch response.status {
        case 400:
            struct TokenError: Decodable { var error: String? }
            return (try? JSONDecoder().decode(TokenError.self, from: response.body))?.error == "use_dpop_nonce"
        case 401:
            return AuthenticationChallenge.challenges(in: response).contains {
                $0.isScheme("DPoP") && $0.error == "use_dpop_nonce"
            }
        default:
            return false
        }
    }

    /// One restored key and the bytes it came from, under a lock (proofs are made on many tasks).
    private final class LastKey: @unchecked Sendable {
        private let lock = NSLock()
        /// Guarded by `lock`.
        private var last: (bytes: Data, key: any DPoPKey)?

        func key(for bytes: Data) -> (any DPoPKey)? {
            lock.withLock { last.flatMap { $0.bytes == bytes ? $0.key : nil } }
        }

        func keep(_ key: any DPoPKey, for bytes: Data) {
            lock.withLock { last = (bytes, key) }
        }
    }

    /// The latest nonce of each server (scheme, host and port), shared by every request of the
    /// process; a lock, since proofs are made on many tasks at once.
    private final class Nonces: @unchecked Sendable {
        private let lock = NSLock()
        /// Guarded by `lock`.
        private var byOrigin: [String: String] = [:]

        subscript(url: URL) -> String? {
            get { self[origin: RedirectMiddleware.origin(of: url)] }
            set { self[origin: RedirectMiddleware.origin(of: url)] = newValue }
        }

        subscript(origin origin: String) -> String? {
            get { lock.withLock { byOrigin[origin] } }
            set { lock.withLock { byOrigin[origin] = newValue } }
        }
    }
}

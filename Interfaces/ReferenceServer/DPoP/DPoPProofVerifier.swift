import Crypto
import Foundation
import JWTKit
import Synchronization

/// Checks DPoP proofs (RFC 9449 §4.3) and remembers the ones it took, so none is taken twice.
///
/// A proof is a JWT the client signs for one request with the key its tokens are bound to; the
/// public half rides in the proof's own header. Checked here: the signature against that key
/// (jwt-kit; ES256 only), `typ: dpop+jwt`, a public `jwk` with no private members, `htm` and
/// `htu` naming this request, `iat` within ``window`` of the server's clock, `ath` naming the
/// access token the request carries, and `jti` not seen before — kept until its `iat` leaves the
/// window, after which the proof would be refused as too old anyway.
///
/// A class with one lock rather than an actor: every check runs on its caller's task, in
/// parallel with the others, and takes the lock once for the `jti` and nonce bookkeeping — two
/// actor hops per request cost more than that lookup.
final class DPoPProofVerifier: Sendable {
    /// What a proof failed on, for `error_description` / the challenge's description. Says what
    /// was wrong, never the proof's contents.
    struct Refusal: Error, Sendable {
        let reason: String
        /// The proof was good but for its nonce: the client should send it again with the
        /// server's current one (`use_dpop_nonce`, RFC 9449 §8, §9).
        var wantsNonce = false
    }

    /// What a taken proof proved.
    struct Proof: Sendable {
        /// The RFC 7638 thumbprint of the key that signed it: what tokens are bound to.
        let thumbprint: String
    }

    /// How far a proof's `iat` may be from the server's clock, either way.
    static let window: TimeInterval = 60
    /// Longer proofs are refused unread: an ES256 proof with its key is well under 1 KiB.
    static let maximumProofLength = 8 * 1024

    private let now: @Sendable () -> Date
    private let capacity: Int
    /// Whether proofs must carry a nonce the server gave (`DPoP-Nonce`).
    let requiresNonces: Bool
    /// How long a nonce is the current one; the one before stays good for as long again, so a
    /// client that just fetched it is not turned away at the turn.
    static let nonceLifetime: TimeInterval = 300

    /// What the verifier remembers.
    private struct Memory: Sendable {
        /// Every `jti` taken and still inside the window, with when it leaves it.
        var seen: [String: Date] = [:]
        var nonce: (current: String, previous: String?, since: Date)?
    }

    private let memory = Mutex(Memory())

    /// - Parameters:
    ///   - now: the server's clock (the store's, so tests that move it move this too).
    ///   - capacity: the most `jti`s kept. When that many proofs arrived within one window, a
    ///     further one is refused until the oldest leave it: the server never forgets a proof it
    ///     could still be shown again.
    ///   - requiresNonces: demand a nonce from the server in every proof.
    init(now: @escaping @Sendable () -> Date, capacity: Int = 100_000, requiresNonces: Bool = false) {
        self.now = now
        self.capacity = capacity
        self.requiresNonces = requiresNonces
    }

    /// The nonce clients should put in their next proofs, rotated every ``nonceLifetime``;
    /// `nil` when nonces are not required.
    func currentNonce() -> String? {
        guard requiresNonces else { return nil }
        let clock = now()
        return memory.withLock { Self.currentNonce(&$0, now: clock) }
    }

    private static func currentNonce(_ memory: inout Memory, now clock: Date) -> String {
        if let nonce = memory.nonce, clock.timeIntervalSince(nonce.since) < nonceLifetime { return nonce.current }
        let fresh = base64URL(Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }))
        memory.nonce = (fresh, memory.nonce?.current, clock)
        return fresh
    }

    /// Checks `proof` for one request.
    /// - Parameters:
    ///   - method: the request's method, which `htm` must name.
    ///   - targets: the addresses (already ``normalizedTarget(_:)``) under which the client may
    ///     have sent this request; `htu` must be one of them.
    ///   - accessToken: the token the request carries, which `ath` must hash; `nil` at the token
    ///     endpoint, where a proof has no `ath` to check.
    /// - Returns: the proof's key thumbprint.
    /// - Throws: ``Refusal`` naming the first check that failed.
    func check(_ proof: String, method: String, targets: Set<String>,
                           accessToken: String?) async throws(Refusal) -> Proof {
        guard proof.utf8.count <= Self.maximumProofLength else { throw Refusal(reason: "the DPoP proof is too long") }
        let token = Array(proof.utf8)
        let (header, claims, signature, jwk) = try Self.parse(token)
        let key = try await keys.key(x: jwk.x, y: jwk.y)
        // jwt-kit's ES256 check (its `JWTAlgorithm`, as its key collection's `verify` uses) over
        // the proof's first two parts, parsed once above rather than again by the collection.
        let signed = token[..<(token.lastIndex(of: UInt8(ascii: ".")) ?? token.endIndex)]
        guard (try? key.algorithm.verify(signature, signs: signed)) == true else {
            throw Refusal(reason: "the DPoP proof's signature does not verify with the key in its header")
        }
        guard header.typ == "dpop+jwt" else { throw Refusal(reason: "the DPoP proof's typ is not dpop+jwt") }
        guard claims.htm == method else { throw Refusal(reason: "the DPoP proof's htm is not this request's method") }
        guard let htu = Self.normalizedTargets.value(for: claims.htu, making: Self.normalizedTarget), targets.contains(htu) else {
            throw Refusal(reason: "the DPoP proof's htu is not this request's address")
        }
        let clock = now()
        guard abs(clock.timeIntervalSince1970 - claims.iat) <= Self.window else {
            throw Refusal(reason: "the DPoP proof's iat is more than \(Int(Self.window)) seconds from the server's time")
        }
        if let accessToken {
            guard let ath = claims.ath,
                  ConstantTime.equals(ath, Self.accessTokenHashes.value(for: accessToken, making: Self.hash)) else {
                throw Refusal(reason: "the DPoP proof's ath does not match the access token")
            }
        }
        try accept(claims, now: clock)
        return Proof(thumbprint: key.thumbprint)
    }

    /// The checks that need what the server remembers: the nonce, then the `jti`.
    private func accept(_ claims: Claims, now clock: Date) throws(Refusal) {
        try memory.withLock { (memory: inout Memory) throws(Refusal) in
            if requiresNonces {
                let current = Self.currentNonce(&memory, now: clock)
                guard let sent = claims.nonce, sent == current || sent == memory.nonce?.previous else {
                    throw Refusal(reason: claims.nonce == nil ? "the DPoP proof has no nonce; use the one in DPoP-Nonce"
                                                              : "the DPoP proof's nonce is not a current one; use the one in DPoP-Nonce",
                                  wantsNonce: true)
                }
            }
            guard (1...256).contains(claims.jti.utf8.count) else {
                throw Refusal(reason: "the DPoP proof's jti must be 1 to 256 characters")
            }
            try remember(claims.jti, in: &memory.seen, leavesWindowAt: Date(timeIntervalSince1970: claims.iat + Self.window),
                         now: clock)
        }
    }

    /// Records `jti`, or refuses it as a replay (or when the cache is full of live proofs).
    private func remember(_ jti: String, in seen: inout [String: Date], leavesWindowAt expiry: Date,
                          now: Date) throws(Refusal) {
        if let leaves = seen[jti], leaves >= now { throw Refusal(reason: "the DPoP proof's jti was used before") }
        if seen.count >= capacity {
            seen = seen.filter { $0.value >= now }
            guard seen.count < capacity else {
                throw Refusal(reason: "too many DPoP proofs within a minute; try again shortly")
            }
        }
        seen[jti] = expiry
    }

    /// jwt-kit's parser, reading headers with ``ProofJSONDecoder``.
    private static let parser = DefaultJWTParser(jsonDecoder: ProofJSONDecoder())

    /// The header and claims of `proof`, its signature, and the public key its header carries.
    private static func parse(_ proof: [UInt8]) throws(Refusal) -> (JWTHeader, Claims, Data, (x: String, y: String)) {
        let header: JWTHeader, claims: Claims, signature: Data
        do {
            (header, claims, signature) = try parser.parse(proof, as: Claims.self)
        } catch {
            throw Refusal(reason: "the DPoP proof is not a JWT with jti, htm, htu and iat")
        }
        guard header.alg == "ES256" else { throw Refusal(reason: "the DPoP proof's alg must be ES256") }
        guard let jwk = header.jwk else { throw Refusal(reason: "the DPoP proof's header has no jwk") }
        // RFC 9449 §4.3 (7): the header must not carry a private key. d is EC's; the others are
        // RSA's and oct's, refused all the same.
        guard Set(jwk.keys).isDisjoint(with: ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]) else {
            throw Refusal(reason: "the DPoP proof's jwk holds a private key")
        }
        guard jwk["kty"]?.asString == "EC", jwk["crv"]?.asString == "P-256",
              let x = jwk["x"]?.asString, let y = jwk["y"]?.asString
        else { throw Refusal(reason: "the DPoP proof's jwk is not a P-256 public key") }
        return (header, claims, signature, (x, y))
    }

    /// Proof keys already seen, by their `x` and `y`: a client signs its every proof with the
    /// same key, and making jwt-kit's key from the `jwk` (decoding the point, checking it is on
    /// the curve) costs a good part of a signature check. At most ``capacity`` keys; when full,
    /// it starts again empty.
    private let keys = ProofKeys()

    final class ProofKeys: Sendable {
        struct Key: Sendable {
            /// jwt-kit's ES256 algorithm holding the public key.
            let algorithm: any JWTAlgorithm
            /// Its RFC 7638 thumbprint.
            let thumbprint: String
        }

        static let capacity = 1_024
        private let known = Mutex<[String: Key]>([:])

        func key(x: String, y: String) async throws(Refusal) -> Key {
            let name = x + "." + y
            if let key = known.withLock({ $0[name] }) { return key }
            let key: Key
            do {
                let publicKey = try ES256PublicKey(parameters: (x: x, y: y))
                guard let parameters = publicKey.parameters else { throw Refusal(reason: "") }
                key = Key(algorithm: try await JWTKeyCollection().add(ecdsa: publicKey).getKey(),
                          thumbprint: DPoPProofVerifier.thumbprint(x: parameters.x, y: parameters.y))
            } catch {
                throw Refusal(reason: "the DPoP proof's jwk is not a P-256 public key")
            }
            known.withLock {
                if $0.count >= Self.capacity { $0.removeAll() }
                $0[name] = key
            }
            return key
        }
    }

    /// ``normalizedTarget(_:)`` of the `htu`s and server addresses seen lately: the same few
    /// addresses come with every request, and `URLComponents` is slower than the lookup.
    static let normalizedTargets = Memo<String, String?>()

    /// `url` as `htu` is compared (RFC 9449 §4.3 (9), RFC 3986 §6.2.2–6.2.3): scheme and host in
    /// lower case, no default port, an empty path as `/`, no query or fragment; `nil` for what
    /// is not an absolute http(s) address.
    static func normalizedTarget(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let defaultPort = scheme == "http" ? 80 : 443
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)\(port)\(path)"
    }

    /// RFC 7638 §3.2: the required members in lexicographic order, no whitespace, SHA-256.
    static func thumbprint(x: String, y: String) -> String {
        base64URL(Data(SHA256.hash(data: Data(#"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#.utf8))))
    }

    /// ``hash(_:)`` of the access tokens proofs came with lately: a client sends the same token
    /// with every proof until it is renewed. Only tokens the store took reach it.
    static let accessTokenHashes = Memo<String, String>()

    /// `ath` (RFC 9449 §4.2): base64url of the token's SHA-256.
    static func hash(_ accessToken: String) -> String {
        base64URL(Data(SHA256.hash(data: Data(accessToken.utf8))))
    }

    /// One pass over base64's text (every request hashes its token into one) rather than three
    /// `replacingOccurrences`.
    private static func base64URL(_ data: Data) -> String {
        String(decoding: data.base64EncodedString().utf8.compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }, as: UTF8.self)
    }

    /// RFC 9449 §4.2's claims. `iat` as a number, whole or not.
    struct Claims: JWTPayload, JSONObjectDecodable {
        let jti: String
        let htm: String
        let htu: String
        let iat: Double
        let ath: String?
        let nonce: String?

        /// The checks are the verifier's, which knows the request and the clock.
        func verify(using algorithm: some JWTAlgorithm) async throws {}

        init?(jsonObject object: [String: Any]) {
            guard let jti = Self.string(object["jti"]), let htm = Self.string(object["htm"]),
                  let htu = Self.string(object["htu"]), let iat = Self.number(object["iat"]),
                  let ath = Self.optionalString(object["ath"]), let nonce = Self.optionalString(object["nonce"])
            else { return nil }
            (self.jti, self.htm, self.htu, self.iat, self.ath, self.nonce) = (jti, htm, htu, iat, ath, nonce)
        }
    }
}

/// The answers of a pure function for the arguments seen lately, at most ``capacity`` of them;
/// when full, it starts again empty (arguments can come from clients, so it must not grow).
final class Memo<Argument: Hashable & Sendable, Value: Sendable>: Sendable {
    let capacity: Int
    private let values = Mutex<[Argument: Value]>([:])

    init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    func value(for argument: Argument, making make: (Argument) -> Value) -> Value {
        if let known = values.withLock({ $0[argument] }) { return known }
        let value = make(argument)
        values.withLock {
            if $0.count >= capacity { $0.removeAll() }
            $0[argument] = value
        }
        return value
    }
}

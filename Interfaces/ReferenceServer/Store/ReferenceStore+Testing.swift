import Foundation

extension ReferenceStore {
    /// Counters a test can read to check what a client did.
    public struct Stats: Sendable, Hashable, Codable {
        /// Successful `grant_type=password` requests.
        public var passwordGrants = 0
        /// Successful `grant_type=refresh_token` requests.
        public var refreshGrants = 0
        /// Device codes redeemed for tokens (`grant_type=urn:ietf:params:oauth:grant-type:device_code`).
        public var deviceCodeGrants = 0
        /// Authorization codes redeemed for tokens (`grant_type=authorization_code`).
        public var authorizationCodeGrants = 0
        /// `/auth/token` requests answered with an OAuth error.
        public var failedTokenRequests = 0
        /// Every HTTP request except those to `/_test/…`, which would otherwise count themselves.
        public var requests = 0
        /// Requests for each metadata document the server serves (the authorization server's at
        /// both well-known paths, and the protected resources'), by path: how often a client asked
        /// for discovery. Not in `/_test/stats`, whose JSON stays as it was.
        package var metadataRequests: [String: Int] = [:]

        /// Creates counters, all zero unless given.
        package init(passwordGrants: Int = 0, refreshGrants: Int = 0, deviceCodeGrants: Int = 0,
                    authorizationCodeGrants: Int = 0, failedTokenRequests: Int = 0, requests: Int = 0) {
            self.passwordGrants = passwordGrants
            self.refreshGrants = refreshGrants
            self.deviceCodeGrants = deviceCodeGrants
            self.authorizationCodeGrants = authorizationCodeGrants
            self.failedTokenRequests = failedTokenRequests
            self.requests = requests
        }

        enum CodingKeys: String, CodingKey {
            case passwordGrants = "password_grants"
            case refreshGrants = "refresh_grants"
            case deviceCodeGrants = "device_code_grants"
            case authorizationCodeGrants = "authorization_code_grants"
            case failedTokenRequests = "failed_token_requests"
            case requests
        }
    }

    /// Every access and refresh token issued so far, oldest first, including revoked and
    /// expired ones: a test can check that none of them shows up in logs or files. Only the
    /// newest ``ReferenceServerConfiguration/maximumStoredTokens`` are kept, so a long
    /// benchmark run does not grow the list without bound.
    /// - Returns: The tokens in the order they were issued.
    package func issuedTokens() -> [String] {
        issued
    }

    /// Every device code handed out so far (RFC 8628), oldest first, bounded as ``issuedTokens()``:
    /// a test can check that none shows up in logs or files.
    /// - Returns: The device codes in the order they were issued.
    package func deviceCodes() -> [String] {
        issuedDeviceCodes
    }

    /// The thumbprint of the DPoP key an access or refresh token is bound to; `nil` for a bearer
    /// token or one the store does not hold.
    package func dpopThumbprint(of token: String) -> String? {
        (accessTokens[token] ?? refreshTokens[token])?.jkt
    }

    /// The counters as they are now.
    /// - Returns: A copy of the counters.
    public func stats() -> Stats {
        counters
    }

    /// Makes every access token issued so far expired, so the next authorized request of a
    /// client gets `401` and has to refresh. Refresh tokens are untouched.
    public func expireAccessTokens() {
        let past = now().addingTimeInterval(-1)
        for token in accessTokens.keys {
            accessTokens[token]?.expiresAt = past
        }
    }

    /// How many tokens the server holds (access, refresh and rotated refresh tokens), expired
    /// ones not yet pruned included; never more than ``ReferenceServerConfiguration/maximumStoredTokens``.
    package func storedTokens() -> Int {
        storedTokenCount
    }

    /// Changes the lifetime of access tokens issued from now on.
    /// - Parameter ttl: The new lifetime; `expires_in` reports its whole seconds.
    package func setAccessTokenTTL(_ ttl: Duration) {
        accessTokenTTL = max(ttl, .zero)
    }

    /// Changes the lifetime of refresh tokens issued from now on, so a test can let the first
    /// tokens expire and keep the later ones alive however slowly it runs.
    /// - Parameter ttl: The new lifetime.
    package func setRefreshTokenTTL(_ ttl: Duration) {
        refreshTokenTTL = max(ttl, .zero)
    }

    /// Every distinct `User-Agent`/`Accept-Language` pair clients sent (the first 64), so a
    /// test can check how a client introduces itself.
    package func clientIdentities() -> Set<ClientIdentity> {
        identities
    }

    /// Counts one request for the metadata document at `path`. Called for the served documents
    /// only, so the counts stay as few as the documents whatever paths clients try.
    func recordMetadataRequest(path: String) {
        counters.metadataRequests[path, default: 0] += 1
    }

    /// Counts one HTTP request and remembers how its client introduced itself.
    func recordRequest(from identity: ClientIdentity) {
        counters.requests += 1
        if identities.count < 64 { identities.insert(identity) }
    }
}

import Foundation

extension ReferenceStore {
    /// What a password grant came to.
    enum PasswordGrantOutcome: Sendable {
        case granted(TokenPair)
        /// Unknown email or wrong password; the two are not told apart.
        case refused
        /// Too many recent failures for this email or from this client (``LoginThrottle``);
        /// the password was not looked at.
        case throttled(retryAfter: Int)
    }

    /// Runs the password grant, unless the login throttle holds it back.
    /// - Parameter client: The address the request came from, one of the throttle's keys.
    /// - Parameter resource: The resource (RFC 8707) the tokens are restricted to; `nil`: none.
    func passwordGrant(email: String, password: String, scope: String?, client: String, jkt: String?,
                       resource: String? = nil) -> PasswordGrantOutcome {
        switch checkCredentials(email: email, password: password, client: client) {
        case .accepted(let index):
            counters.passwordGrants += 1
            return .granted(issueTokens(userIndex: index, scope: scope, jkt: jkt, resource: resource))
        case .refused:
            return .refused
        case .throttled(let wait):
            return .throttled(retryAfter: wait)
        }
    }

    /// What checking an email and password came to.
    enum CredentialCheck: Sendable, Equatable {
        case accepted(userIndex: Int)
        /// Unknown email or wrong password; the two are not told apart.
        case refused
        /// Held back by the login throttle; the password was not looked at.
        case throttled(retryAfter: Int)
    }

    /// Checks a person's email and password, counting failures for the login throttle: the one
    /// check behind the password grant and the device verification page.
    /// - Parameter client: The address the request came from, one of the throttle's keys.
    func checkCredentials(email: String, password: String, client: String) -> CredentialCheck {
        if let wait = failedLogins.retryAfter(email: email, client: client, now: now()) {
            return .throttled(retryAfter: wait)
        }
        let index = indexByEmail[email.lowercased()]
        // Compare against something even for unknown emails, so timing does not reveal accounts.
        let expected = index.map { users[$0].password } ?? "unknown-account-placeholder"
        let matches = ConstantTime.equals(expected, password)
        guard let index, matches else {
            failedLogins.recordFailure(email: email, client: client, now: now())
            return .refused
        }
        failedLogins.recordSuccess(email: email)
        return .accepted(userIndex: index)
    }

    /// Starts a new token family for the user at `userIndex`: the tokens of a sign-in.
    /// - Parameters:
    ///   - jkt: the thumbprint of the DPoP key the request proved, which both tokens are bound
    ///     to; `nil` for bearer tokens.
    ///   - resource: the resource the grant is restricted to (RFC 8707), which the refresh token
    ///     remembers; `nil`: unrestricted.
    ///   - audience: the resource the access token is for; ``resource`` unless told.
    func issueTokens(userIndex: Int, scope: String?, jkt: String?, resource: String? = nil,
                     audience: String? = nil) -> TokenPair {
        defer { nextGrantID += 1 }
        return issueTokens(userIndex: userIndex, grantID: nextGrantID, scope: scope, jkt: jkt,
                           resource: resource, audience: audience ?? resource)
    }

    /// What a refresh grant came to.
    enum RefreshOutcome: Sendable {
        case granted(TokenPair)
        /// Unknown, expired, revoked or already used.
        case invalid
        /// Bound to a DPoP key the request did not prove (no proof, or another key's). The
        /// token stays as it was: whoever sent it without the key cannot spend it for its owner.
        case wrongKey
        /// A `resource` outside the grant (RFC 8707 §2.2); the token stays as it was.
        case invalidTarget(String)
    }

    /// Runs the refresh grant: the used refresh token is retired, a new one takes its place in
    /// the same family. Access tokens issued before stay valid until they expire.
    ///
    /// Presenting a retired refresh token again means two parties hold the family's tokens —
    /// a stolen copy, or a client that lost track — and the server cannot tell which one is
    /// legitimate, so it revokes the whole family (RFC 9700 §4.14.2): every access and
    /// refresh token descending from that login, the newest included.
    ///
    /// A refresh token bound to a DPoP key is exchanged only with a proof of that key (RFC 9449
    /// §5), and its successors are bound to the same key. An unbound one sent with a proof
    /// gets tokens bound to the proof's key.
    /// The new access token is for the `resource` asked for, which must be the grant's when the
    /// grant was restricted to one (RFC 8707 §2.2), or for the grant's resource when none is
    /// asked for; the new refresh token keeps the grant's.
    /// - Parameters:
    ///   - jkt: the thumbprint of the key the request proved, if it sent a proof.
    ///   - resource: the canonical resource the request asked for, if any.
    func refreshGrant(refreshToken: String, jkt: String?, resource: String? = nil) -> RefreshOutcome {
        if let retired = retiredRefreshTokens[refreshToken] {
            // Only the key's holder can show the token is being replayed; without it the
            // request says nothing about the family, and must not end it for its owner.
            guard retired.jkt == nil || retired.jkt == jkt else { return .wrongKey }
            revokeFamily(retired.grantID)
            return .invalid
        }
        guard let record = refreshTokens[refreshToken] else { return .invalid }
        guard record.expiresAt > now() else { return .invalid }
        if let bound = record.jkt {
            guard let jkt, ConstantTime.equals(bound, jkt) else { return .wrongKey }
        }
        if let resource, let granted = record.resource, resource != granted {
            return .invalidTarget("the refresh token's sign-in was for the resource \(granted), not \(resource)")
        }
        refreshTokens.removeValue(forKey: refreshToken)
        retiredRefreshTokens[refreshToken] = record
        counters.refreshGrants += 1
        return .granted(issueTokens(userIndex: record.userIndex, grantID: record.grantID, scope: record.scope,
                                    jkt: record.jkt ?? jkt, resource: record.resource, audience: resource ?? record.resource))
    }

    /// RFC 7009 revocation. A refresh token (current or retired) ends its whole family, so the
    /// access tokens issued under it die too; an access token dies alone. Unknown tokens are ignored.
    func revoke(token: String) {
        if let record = refreshTokens[token] ?? retiredRefreshTokens[token] {
            revokeFamily(record.grantID)
        }
        accessTokens.removeValue(forKey: token)
    }

    /// Checks an access token; the caller checks the proof a bound one needs.
    func check(accessToken: String) -> BearerCheck {
        guard let record = accessTokens[accessToken] else { return .unknown }
        guard record.expiresAt > now() else { return .expired }
        return .valid(users[record.userIndex], jkt: record.jkt, audience: record.resource, scope: record.scope)
    }

    /// Counts a token request answered with an OAuth error.
    func recordFailedTokenRequest() {
        counters.failedTokenRequests += 1
    }

    /// How many tokens the store holds now: access, refresh and retired refresh tokens.
    var storedTokenCount: Int {
        accessTokens.count + refreshTokens.count + retiredRefreshTokens.count
    }

    /// Forgets every token of a family, so none of them is known any more.
    func revokeFamily(_ grantID: UInt64) {
        removeTokens { $0.grantID == grantID }
    }

    /// Forgets every token, of any table, that `matches`.
    func removeTokens(where matches: (IssuedToken) -> Bool) {
        for (token, record) in accessTokens where matches(record) { accessTokens.removeValue(forKey: token) }
        for (token, record) in refreshTokens where matches(record) { refreshTokens.removeValue(forKey: token) }
        for (token, record) in retiredRefreshTokens where matches(record) { retiredRefreshTokens.removeValue(forKey: token) }
    }

    private func issueTokens(userIndex: Int, grantID: UInt64, scope: String?, jkt: String?, resource: String?,
                             audience: String?) -> TokenPair {
        makeRoom(for: 2)
        let issuedAt = now()
        let accessExpiry = issuedAt.addingTimeInterval(Self.seconds(accessTokenTTL))
        let access = jwtAccessTokens
            ? JWTShape.token(subject: users[userIndex].id, expiresAt: accessExpiry, id: uniqueToken())
            : uniqueToken()
        let refresh = uniqueToken()
        accessTokens[access] = IssuedToken(
            userIndex: userIndex,
            grantID: grantID,
            sequence: nextSequence(),
            expiresAt: accessExpiry,
            scope: scope,
            jkt: jkt,
            resource: audience
        )
        refreshTokens[refresh] = IssuedToken(
            userIndex: userIndex,
            grantID: grantID,
            sequence: nextSequence(),
            expiresAt: issuedAt.addingTimeInterval(Self.seconds(refreshTokenTTL)),
            scope: scope,
            jkt: jkt,
            resource: resource
        )
        remember(access, refresh)
        return TokenPair(
            accessToken: access,
            refreshToken: refresh,
            expiresIn: jwtAccessTokens ? nil : Int(accessTokenTTL.components.seconds),
            user: users[userIndex],
            scope: scope,
            jkt: jkt
        )
    }

    private func nextSequence() -> UInt64 {
        defer { tokenSequence += 1 }
        return tokenSequence
    }

    /// Adds to the leak-check log (``issuedTokens()``), which keeps the newest
    /// ``ReferenceServerConfiguration/maximumStoredTokens`` entries; trimming a tenth at a time
    /// keeps the cost of dropping from the front rare.
    private func remember(_ tokens: String...) {
        issued.append(contentsOf: tokens)
        if issued.count > maximumStoredTokens + maximumStoredTokens / 10 {
            issued.removeFirst(issued.count - maximumStoredTokens)
        }
    }

    /// 256 random bits never collide in practice; checking costs nothing and makes it certain.
    private func uniqueToken() -> String {
        var token = tokenGenerator.next()
        while accessTokens[token] != nil || refreshTokens[token] != nil || retiredRefreshTokens[token] != nil {
            token = tokenGenerator.next()
        }
        return token
    }

    /// Keeps the tables bounded: expired tokens go every few thousand issues, and whenever the
    /// next `count` tokens would pass the limit. Then, if fewer than a tenth of the places are
    /// free, the oldest tokens go until a tenth is, so this slow path (a scan and a sort) runs
    /// once per many issues rather than on every one.
    private func makeRoom(for count: Int) {
        issuesSincePrune += 1
        if issuesSincePrune >= 4096 { pruneExpiredTokens() }
        guard storedTokenCount + count > maximumStoredTokens else { return }
        pruneExpiredTokens()
        let target = maximumStoredTokens - maximumStoredTokens / 10
        let excess = storedTokenCount + count - target
        guard excess > 0 else { return }
        let sequences = accessTokens.values.map(\.sequence) + refreshTokens.values.map(\.sequence)
            + retiredRefreshTokens.values.map(\.sequence)
        guard let newestDropped = sequences.sorted().prefix(excess).last else { return }
        removeTokens { $0.sequence <= newestDropped }
    }

    /// Drops expired tokens of every table; a retired refresh token lives as long as it would
    /// have, so reuse is caught for as long as the token could have been used.
    func pruneExpiredTokens() {
        issuesSincePrune = 0
        let cutoff = now()
        removeTokens { $0.expiresAt <= cutoff }
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let parts = duration.components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}

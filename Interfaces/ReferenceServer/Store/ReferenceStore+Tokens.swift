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
    func passwordGrant(email: String, password: String, scope: String?, client: String) -> PasswordGrantOutcome {
        switch checkCredentials(email: email, password: password, client: client) {
        case .accepted(let index):
            counters.passwordGrants += 1
            return .granted(issueTokens(userIndex: index, scope: scope))
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
    func issueTokens(userIndex: Int, scope: String?) -> TokenPair {
        defer { nextGrantID += 1 }
        return issueTokens(userIndex: userIndex, grantID: nextGrantID, scope: scope)
    }

    /// Runs the refresh grant: the used refresh token is retired, a new one takes its place in
    /// the same family. Access tokens issued before stay valid until they expire.
    ///
    /// Presenting a retired refresh token again means two parties hold the family's tokens —
    /// a stolen copy, or a client that lost track — and the server cannot tell which one is
    /// legitimate, so it revokes the whole family (RFC 9700 §4.14.2): every access and
    /// refresh token descending from that login, the newest included.
    /// - Returns: New tokens, or `nil` when the refresh token is unknown, retired, expired or revoked.
    func refreshGrant(refreshToken: String) -> TokenPair? {
        if let retired = retiredRefreshTokens[refreshToken] {
            revokeFamily(retired.grantID)
            return nil
        }
        guard let record = refreshTokens.removeValue(forKey: refreshToken) else { return nil }
        guard record.expiresAt > now() else { return nil }
        retiredRefreshTokens[refreshToken] = record
        counters.refreshGrants += 1
        return issueTokens(userIndex: record.userIndex, grantID: record.grantID, scope: record.scope)
    }

    /// RFC 7009 revocation. A refresh token (current or retired) ends its whole family, so the
    /// access tokens issued under it die too; an access token dies alone. Unknown tokens are ignored.
    func revoke(token: String) {
        if let record = refreshTokens[token] ?? retiredRefreshTokens[token] {
            revokeFamily(record.grantID)
        }
        accessTokens.removeValue(forKey: token)
    }

    /// Checks a bearer token.
    func check(accessToken: String) -> BearerCheck {
        guard let record = accessTokens[accessToken] else { return .unknown }
        guard record.expiresAt > now() else { return .expired }
        return .valid(users[record.userIndex])
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

    private func issueTokens(userIndex: Int, grantID: UInt64, scope: String?) -> TokenPair {
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
            scope: scope
        )
        refreshTokens[refresh] = IssuedToken(
            userIndex: userIndex,
            grantID: grantID,
            sequence: nextSequence(),
            expiresAt: issuedAt.addingTimeInterval(Self.seconds(refreshTokenTTL)),
            scope: scope
        )
        remember(access, refresh)
        return TokenPair(
            accessToken: access,
            refreshToken: refresh,
            expiresIn: jwtAccessTokens ? nil : Int(accessTokenTTL.components.seconds),
            user: users[userIndex],
            scope: scope
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

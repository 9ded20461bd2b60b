import Foundation

extension ReferenceStore {
    /// Runs the password grant.
    /// - Returns: New tokens, or `nil` when the email is unknown or the password is wrong.
    func passwordGrant(email: String, password: String, scope: String?) -> TokenPair? {
        let index = indexByEmail[email.lowercased()]
        // Compare against something even for unknown emails, so timing does not reveal accounts.
        let expected = index.map { users[$0].password } ?? "unknown-account-placeholder"
        let matches = ConstantTime.equals(expected, password)
        guard let index, matches else { return nil }
        counters.passwordGrants += 1
        defer { nextGrantID += 1 }
        return issueTokens(userIndex: index, grantID: nextGrantID, scope: scope)
    }

    /// Runs the refresh grant: the used refresh token dies, a new one takes its place.
    /// Access tokens issued before stay valid until they expire.
    /// - Returns: New tokens, or `nil` when the refresh token is unknown, used, expired or revoked.
    func refreshGrant(refreshToken: String) -> TokenPair? {
        guard let record = refreshTokens.removeValue(forKey: refreshToken),
            !revokedGrants.contains(record.grantID),
            record.expiresAt > now()
        else { return nil }
        counters.refreshGrants += 1
        return issueTokens(userIndex: record.userIndex, grantID: record.grantID, scope: record.scope)
    }

    /// RFC 7009 revocation. A refresh token ends its whole grant, so the access tokens issued
    /// under it die too; an access token dies alone. Unknown tokens are ignored.
    func revoke(token: String) {
        if let record = refreshTokens.removeValue(forKey: token) {
            revokedGrants.insert(record.grantID)
        }
        accessTokens.removeValue(forKey: token)
    }

    /// Checks a bearer token.
    func check(accessToken: String) -> BearerCheck {
        guard let record = accessTokens[accessToken], !revokedGrants.contains(record.grantID) else {
            return .unknown
        }
        guard record.expiresAt > now() else { return .expired }
        return .valid(users[record.userIndex])
    }

    /// Counts a token request answered with an OAuth error.
    func recordFailedTokenRequest() {
        counters.failedTokenRequests += 1
    }

    private func issueTokens(userIndex: Int, grantID: UInt64, scope: String?) -> TokenPair {
        pruneExpiredTokensOccasionally()
        let issuedAt = now()
        let accessExpiry = issuedAt.addingTimeInterval(Self.seconds(accessTokenTTL))
        let access = jwtAccessTokens
            ? JWTShape.token(subject: users[userIndex].id, expiresAt: accessExpiry, id: uniqueToken())
            : uniqueToken()
        let refresh = uniqueToken()
        accessTokens[access] = IssuedToken(
            userIndex: userIndex,
            grantID: grantID,
            expiresAt: accessExpiry,
            scope: scope
        )
        refreshTokens[refresh] = IssuedToken(
            userIndex: userIndex,
            grantID: grantID,
            expiresAt: issuedAt.addingTimeInterval(Self.seconds(refreshTokenTTL)),
            scope: scope
        )
        issued.append(access)
        issued.append(refresh)
        return TokenPair(
            accessToken: access,
            refreshToken: refresh,
            expiresIn: jwtAccessTokens ? nil : Int(accessTokenTTL.components.seconds),
            user: users[userIndex],
            scope: scope
        )
    }

    /// 256 random bits never collide in practice; checking costs nothing and makes it certain.
    private func uniqueToken() -> String {
        var token = tokenGenerator.next()
        while accessTokens[token] != nil || refreshTokens[token] != nil {
            token = tokenGenerator.next()
        }
        return token
    }

    /// Keeps long benchmark runs from growing the token tables without bound.
    private func pruneExpiredTokensOccasionally() {
        guard issued.count % 4096 == 0, !issued.isEmpty else { return }
        let cutoff = now()
        accessTokens = accessTokens.filter { $0.value.expiresAt > cutoff }
        refreshTokens = refreshTokens.filter { $0.value.expiresAt > cutoff }
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let parts = duration.components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}

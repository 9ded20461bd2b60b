import Foundation

/// The client credentials grant (RFC 6749 §4.4): a confidential client asks for tokens as
/// itself. Its tokens act for an account of its own — made on its first grant, hidden from
/// listings and searches, with a password nobody knows — so the rider API's `GET /auth/me`
/// names the client, and nothing a person owns is reachable with them.
extension ReferenceStore {
    /// The email of `clientID`'s own account: under `.invalid` (RFC 2606), so no person has it.
    static func clientAccountEmail(_ clientID: String) -> String { "\(clientID)@clients.invalid" }

    /// Tokens for `clientID` itself, bound to `jkt` when a DPoP proof came with the request. No
    /// refresh token is issued (RFC 6749 §4.4.3): the client asks again.
    func clientCredentialsGrant(clientID: String, scope: String?, jkt: String?, resource: String? = nil) -> TokenPair {
        let email = Self.clientAccountEmail(clientID)
        let index: Int
        if let known = indexByEmail[email] {
            index = known
        } else {
            index = users.count
            users.append(ReferenceUser(index: index, email: email, password: tokenGenerator.next(),
                                       displayName: clientID, role: .user, riderType: .learner,
                                       createdAt: Self.wholeSeconds(now())))
            indexByEmail[email] = index
            hiddenUsers.insert(index)
        }
        return withoutRefreshToken(issueTokens(userIndex: index, scope: scope, jkt: jkt, resource: resource))
    }

    /// `pair` with its refresh token forgotten, for grants that hand out none.
    func withoutRefreshToken(_ pair: TokenPair) -> TokenPair {
        var pair = pair
        if let refresh = pair.refreshToken { refreshTokens[refresh] = nil }
        pair.refreshToken = nil
        return pair
    }
}

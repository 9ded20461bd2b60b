import Foundation
import RiderKit

/// What `rider session show` reveals about a session: whose it is and how long it lasts —
/// never a token.
struct SessionOutput: Encodable, Sendable {
    let server: String
    /// The protected resource the tokens are for (RFC 8707), when the sign-in named one.
    @Nullable var resource: String?
    let userID: String
    @Nullable var role: String?
    let issuedAt: Date
    @Nullable var expiresAt: Date?
    @Nullable var expiresInSeconds: Int?
    let refreshable: Bool
    /// The backend, in a word (`secret-service`, `encrypted-file`, `memory`), as `session list` says it.
    let vault: String
    /// Where that backend keeps the session, in words (the file's path, the keyring's item).
    let vaultLocation: String
    @Nullable var email: String?
    @Nullable var identitySource: String?
    /// The account as `rider session list` names it, for a session that kept no identity.
    @Nullable var account: String?
    /// `bearer`, or `dpop` for tokens bound to a key (RFC 9449). (Not "token_type": no key of
    /// this output names a token, so a script's filter for secrets has nothing to find.)
    let binding: String
    /// The RFC 7638 thumbprint of the key a DPoP-bound session proves (never the key).
    @Nullable var dpopKeyThumbprint: String?

    init(_ session: Session, server: String, vault: String, vaultLocation: String, now: Date, account: String? = nil,
         dpopKeyThumbprint: String? = nil) {
        self.server = server
        resource = session.resource?.absoluteString
        userID = session.userID.rawValue
        role = session.role?.rawValue
        issuedAt = session.issuedAt
        expiresAt = session.expiresAt
        expiresInSeconds = session.expiresAt.map { Int($0.timeIntervalSince(now).rounded(.down)) }
        refreshable = session.refreshToken != nil
        self.vault = vault
        self.vaultLocation = vaultLocation
        email = session.identity?.email
        identitySource = session.identity?.source.rawValue
        self.account = account
        binding = session.isSenderConstrained ? "dpop" : "bearer"
        self.dpopKeyThumbprint = dpopKeyThumbprint
    }

    func lines(now: Date) -> [String] {
        let expiry = expiresAt.map { expiresAt in
            let left = refreshable && expiresAt <= now
                ? "access token expired; renewed on next use" : HumanFormat.timeLeft(until: expiresAt, from: now)
            return "\(HumanFormat.date(expiresAt)) (\(left))"
        }
        return HumanFormat.block([("server", server)] + (resource.map { [("resource", $0)] } ?? []) + [
            ("user id", userID),
            ("account", identitySource.map { "\(email ?? account ?? "-") (\(IdentityOutput.describe($0)))" } ?? account ?? "-"),
            ("role", role ?? "unknown"),
            ("expires", expiry ?? "unknown (the server did not say)"),
            ("refresh", refreshable ? "automatic when the access token expires"
                : "not possible: no refresh token (a token given by hand, or the server issued none); log in again "
                    + "when the server refuses it"),
            ("tokens", binding == "dpop"
                ? "bound to a DPoP key (thumbprint \(dpopKeyThumbprint ?? "unreadable")): useless without its proof"
                : "bearer: whoever holds the access token can use it"),
            ("vault", vaultLocation),
        ])
    }
}

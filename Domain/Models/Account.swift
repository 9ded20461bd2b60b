import Foundation

/// One signed-in account on one server, as RiderKit lists it: who it is, never its tokens.
///
/// Several can be stored side by side (a staging and a production server, two accounts on one
/// server); on each server one is the active account, which `RiderKit` speaks for unless told.
public struct Account: Hashable, Sendable, Codable, Identifiable, CustomStringConvertible {
    /// The user id, or the OpenID subject for sessions from a provider.
    public var id: UserID
    /// The server: its API origin, e.g. `https://api.example.com`.
    public var server: String
    /// The account's email, when the sign-in told it (the id_token, userinfo, or the email signed in with).
    public var email: String?
    /// The account's name, when the provider told it.
    public var name: String?
    /// Whether this is the server's active account.
    public var isActive: Bool
    /// When the account last signed in here.
    public var signedInAt: Date?
    /// Whether ``email`` is verified (``AccountIdentity/isEmailVerified``); `nil` when not known.
    package var emailVerified: Bool?

    /// - Parameters:
    ///   - id: the user id or OpenID subject.
    ///   - server: the API origin.
    ///   - email: the account's email, if known.
    ///   - name: the account's name, if known.
    ///   - isActive: whether it is the server's active account.
    ///   - signedInAt: when it last signed in here.
    package init(id: UserID, server: String, email: String? = nil, name: String? = nil, isActive: Bool = false,
                signedInAt: Date? = nil) {
        self.id = id
        self.server = server
        self.email = email
        self.name = name
        self.isActive = isActive
        self.signedInAt = signedInAt
    }

    /// How a person names the account: its email, else its id.
    public var displayName: String { email ?? id.rawValue }

    /// Whether `name` (an email, compared without regard to case, or the id) names this account.
    package func isNamed(_ name: String) -> Bool {
        id.rawValue == name || email.map { $0.caseInsensitiveCompare(name) == .orderedSame } == true
    }

    public var description: String { "\(displayName) on \(server)\(isActive ? " (active)" : "")" }

    /// How a name picked an account (``named(_:among:server:)``).
    package enum Match: Sendable, Equatable {
        /// By its id (the OpenID subject): what identifies an account.
        case id
        /// By an email the provider verified, or that signed in with a password.
        case verifiedEmail
        /// By an email nobody verified, which no other stored account has.
        case unverifiedEmail
    }

    /// The account `name` names among `accounts`: the one whose id it is, else the one whose
    /// verified email it is (ignoring case), else the only one whose unverified email it is.
    ///
    /// An unverified email is the account holder's word: someone who gets their own account
    /// stored here (signed in on this machine for them) can give it anyone's address. It names an
    /// account only when no other stored account shows it, and the caller says so.
    /// - Returns: the account and how it matched; `nil` when none matches.
    /// - Throws: `RiderError` with code `unknownAccount` when `name` is the email of several
    ///   accounts and none of them alone has it verified: name one by its id.
    package static func named(_ name: String, among accounts: [Account], server: String) throws
        -> (account: Account, match: Match)? {
        if let byID = accounts.first(where: { $0.id.rawValue == name }) { return (byID, .id) }
        let byEmail = accounts.filter { $0.email.map { $0.caseInsensitiveCompare(name) == .orderedSame } == true }
        let verified = byEmail.filter { $0.emailVerified == true }
        if verified.count == 1, let account = verified.first { return (account, .verifiedEmail) }
        if verified.isEmpty, byEmail.count == 1, let account = byEmail.first { return (account, .unverifiedEmail) }
        guard byEmail.isEmpty else {
            let ids = byEmail.map(\.id.rawValue).joined(separator: ", ")
            throw RiderError(code: .unknownAccount,
                             message: "'\(name)' is the email of several accounts on \(server) (\(ids)), not verified as "
                                 + "one's alone: name the account by its id.",
                             detail: ids)
        }
        return nil
    }
}

/// What changed among a server's accounts (`Accounts.changes()`): the accounts as they
/// are now, with the active one marked.
public struct AccountsChange: Hashable, Sendable {
    /// The server's accounts after the change, the active one first.
    public var accounts: [Account]
    /// The active account after the change, if any.
    public var active: Account? { accounts.first(where: \.isActive) }

    /// - Parameter accounts: the accounts after the change.
    package init(accounts: [Account]) { self.accounts = accounts }
}

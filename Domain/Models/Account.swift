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

    /// - Parameters:
    ///   - id: the user id or OpenID subject.
    ///   - server: the API origin.
    ///   - email: the account's email, if known.
    ///   - name: the account's name, if known.
    ///   - isActive: whether it is the server's active account.
    ///   - signedInAt: when it last signed in here.
    public init(id: UserID, server: String, email: String? = nil, name: String? = nil, isActive: Bool = false,
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
    public func isNamed(_ name: String) -> Bool {
        id.rawValue == name || email.map { $0.caseInsensitiveCompare(name) == .orderedSame } == true
    }

    public var description: String { "\(displayName) on \(server)\(isActive ? " (active)" : "")" }
}

/// What changed among a server's accounts (``AccountRegistry/changes()``): the accounts as they
/// are now, with the active one marked.
public struct AccountsChange: Hashable, Sendable {
    /// The server's accounts after the change, the active one first.
    public var accounts: [Account]
    /// The active account after the change, if any.
    public var active: Account? { accounts.first(where: \.isActive) }

    /// - Parameter accounts: the accounts after the change.
    public init(accounts: [Account]) { self.accounts = accounts }
}

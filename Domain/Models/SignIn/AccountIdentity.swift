import Foundation

/// Who the provider says a session's account is (OpenID Connect): the subject is the session's
/// ``Session/userID``; this holds what is shown of it, and where it came from.
///
/// Text from the provider: escape it before a terminal shows it.
public struct AccountIdentity: Hashable, Sendable, Codable {
    /// Where the identity came from.
    public enum Source: String, Hashable, Sendable, Codable {
        /// The verified id_token of the sign-in.
        case idToken = "id_token"
        /// The provider's userinfo endpoint.
        case userinfo
        /// The email the account signed in with, which the server accepted with its password.
        case credentials
    }

    /// The `email` claim, if the provider shared it.
    public var email: String?
    /// The `name` claim, if the provider shared it.
    public var name: String?
    /// Where the identity came from.
    public var source: Source
    /// The provider's `email_verified` claim; `nil` when it did not say (or the identity was
    /// kept before RiderKit read it).
    package var emailVerified: Bool?

    /// Whether the email is known to be the account's: the provider verified it, or the server
    /// accepted it with the account's password. Only such an email names an account for sure
    /// (`--account`): anyone may put another's address, unverified, on an account of their own.
    package var isEmailVerified: Bool { source == .credentials || emailVerified == true }

    /// - Parameters:
    ///   - email: the `email` claim.
    ///   - name: the `name` claim.
    ///   - source: where it came from.
    package init(email: String?, name: String?, source: Source) {
        self.email = email
        self.name = name
        self.source = source
    }
}

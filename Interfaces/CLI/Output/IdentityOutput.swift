import Foundation
import RiderKit

/// The OpenID identity of the signed-in account, as `rider whoami` prints it when the server has
/// no rider API to ask (a standards provider such as Keycloak or django-oauth-toolkit).
struct IdentityOutput: Encodable, Sendable {
    let id: String
    @Nullable var email: String?
    @Nullable var name: String?
    /// `id_token` or `userinfo`.
    let source: String

    init(_ session: Session, identity: AccountIdentity) {
        id = session.userID.rawValue
        email = identity.email
        name = identity.name
        source = identity.source.rawValue
    }

    var lines: [String] {
        HumanFormat.block([
            ("id", id),
            ("email", email ?? "-"),
            ("name", name ?? "-"),
            ("source", Self.describe(source)),
        ])
    }

    /// Where an identity came from, in words.
    static func describe(_ source: String) -> String {
        switch source {
        case AccountIdentity.Source.idToken.rawValue: "OpenID Connect: the sign-in's verified id_token"
        case AccountIdentity.Source.userinfo.rawValue: "OpenID Connect: the provider's userinfo endpoint"
        default: "the email signed in with"
        }
    }
}

import Foundation
import RiderDomain

extension API {
    /// `GET {jwks_uri}` (RFC 7517 §5): the provider's public signing keys, as sent; the JOSE
    /// library reads them.
    package static func keySet(at endpoint: URL) -> Endpoint<Data> {
        Endpoint(method: .get, path: endpoint.absoluteString, authorization: .none, decode: { $0.body })
    }

    /// `GET {userinfo_endpoint}` (OpenID Connect Core §5.3) with the new access token: the
    /// account's subject and identity, for a sign-in whose provider sent no id_token.
    package static func userinfo(at endpoint: URL) -> Endpoint<(subject: String, identity: AccountIdentity)> {
        var request = Endpoint<(subject: String, identity: AccountIdentity)>(
            method: .get, path: endpoint.absoluteString, authorization: .bearer, decode: { response in
            let info = try ContractCoding.decode(UserinfoDTO.self, from: response.body, what: "the userinfo answer")
            let subject = info.sub
            guard !subject.isEmpty, subject.utf8.count <= 255,
                  !subject.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
                throw RiderError.malformedResponse("the userinfo answer names no usable subject (sub)")
            }
            var identity = AccountIdentity(email: info.email.map(ProblemMapping.clip),
                                           name: info.name.map(ProblemMapping.clip), source: .userinfo)
            identity.emailVerified = info.emailVerified
            return (subject, identity)
        })
        // The request carries the bearer token.
        request.followsRedirects = false
        return request
    }
}

/// What RiderKit reads of a userinfo answer.
struct UserinfoDTO: Decodable, Sendable {
    var sub: String
    var email: String?
    var emailVerified: Bool?
    var name: String?

    enum CodingKeys: String, CodingKey {
        case sub, email, name
        case emailVerified = "email_verified"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sub = try container.decode(String.self, forKey: .sub)
        // Claims a provider may send in another shape are left out, not fatal.
        email = try? container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = IDTokenClaims.flag(container, .emailVerified)
        name = try? container.decodeIfPresent(String.self, forKey: .name)
    }
}

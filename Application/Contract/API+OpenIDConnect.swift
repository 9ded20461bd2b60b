import Foundation
import RiderDomain

extension API {
    /// `GET {jwks_uri}` (RFC 7517 §5): the provider's public signing keys, as sent; the JOSE
    /// library reads them.
    package static func keySet(at endpoint: URL) -> Endpoint<Data> {
        Endpoint(method: .get, path: endpoint.absoluteString, authorization: .none, decode: { $0.body })
    }

    /// `GET {userinfo_endpoint}` (OpenID Connect Core §5.3) with the new access token: the
    /// account's subject, for a sign-in whose provider sent no id_token.
    package static func userinfoSubject(at endpoint: URL) -> Endpoint<String> {
        var request = Endpoint<String>(method: .get, path: endpoint.absoluteString, authorization: .bearer,
                                       decode: { response in
            let subject = try ContractCoding.decode(UserinfoDTO.self, from: response.body, what: "the userinfo answer").sub
            guard !subject.isEmpty, subject.utf8.count <= 255,
                  !subject.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
                throw RiderError.malformedResponse("the userinfo answer names no usable subject (sub)")
            }
            return subject
        })
        // The request carries the bearer token.
        request.followsRedirects = false
        return request
    }
}

/// What RiderKit reads of a userinfo answer.
struct UserinfoDTO: Decodable, Sendable {
    var sub: String
}

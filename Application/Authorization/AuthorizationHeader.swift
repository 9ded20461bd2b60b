import Foundation
import RiderDomain

/// The credentials a request carries in its `Authorization` header, and the one place RiderKit
/// writes that header: a session's bearer token (RFC 6750) on the API's and the provider's
/// resource requests, or the client's own id and secret (RFC 6749 §2.3.1) on the token and
/// revocation endpoints; a DPoP-bound token with its scheme (its proof is ``DPoP``'s).
package enum AuthorizationHeader: Sendable {
    /// `Bearer <access token>`.
    case bearer(String)
    /// `DPoP <access token>` (RFC 9449 §7.1), beside a `DPoP` proof header.
    case dpop(String)
    /// `Basic base64(form-encoded id ":" form-encoded secret)`, as RFC 6749 §2.3.1 spells it.
    case clientSecretBasic(clientID: String, secret: String)

    /// The header's value. Holds a secret: never log or print it.
    var value: String {
        switch self {
        case .bearer(let token):
            return "Bearer \(token)"
        case .dpop(let token):
            return "DPoP \(token)"
        case .clientSecretBasic(let clientID, let secret):
            let pair = FormEncoding.escape(clientID, spaceAsPlus: true) + ":" + FormEncoding.escape(secret, spaceAsPlus: true)
            return "Basic " + Data(pair.utf8).base64EncodedString()
        }
    }

    /// Writes the header into `headers`, replacing any there.
    package func apply(to headers: inout HTTPHeaders) {
        headers["Authorization"] = value
    }

    /// `request` carrying these credentials.
    package func applied(to request: HTTPRequest) -> HTTPRequest {
        var request = request
        apply(to: &request.headers)
        return request
    }
}

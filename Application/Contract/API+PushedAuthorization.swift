import Foundation
import RiderDomain

extension API {
    /// `POST {pushed_authorization_request_endpoint}` (RFC 9126 §2.1): a browser sign-in's
    /// parameters, pushed with the client's authentication as at the token endpoint; the answer's
    /// `request_uri` then stands for them in the browser's address (§2.2).
    ///
    /// The form holds the PKCE challenge, `state` and `nonce`: never sent on after a redirect.
    /// - Parameters:
    ///   - parameters: the authorization request's parameters, `client_id` among them.
    ///   - endpoint: the provider's pushed authorization request endpoint.
    ///   - configuration: the client's identity and authentication.
    package static func pushedAuthorizationRequest(_ parameters: [(String, String)], at endpoint: URL,
                                                   in configuration: APIConfiguration) -> Endpoint<String> {
        // The client names itself as its authentication does (a public client in the form, a
        // confidential one maybe only in the Authorization header); the request still names it.
        var form = parameters.filter { $0.0 != "client_id" }
        var headers = HTTPHeaders()
        headers["Cache-Control"] = "no-store"
        addClientAuthentication(to: &form, headers: &headers, configuration: configuration)
        if !form.contains(where: { $0.0 == "client_id" }), let clientID = parameters.first(where: { $0.0 == "client_id" }) {
            form.insert(clientID, at: 0)
        }
        var request = Endpoint<String>(
            method: .post, path: endpoint.absoluteString, headers: headers, body: .form(form), authorization: .none,
            decode: { response in
                guard response.status == 201 || response.status == 200 else {
                    throw RiderError.malformedResponse("the pushed authorization request was answered "
                        + "\(response.status), not 201 Created")
                }
                let pushed = try ContractCoding.decode(PushedAuthorizationDTO.self, from: response.body,
                                                       what: "the pushed authorization request's answer")
                // RFC 9126 §2.2: a URI; the browser carries it, so it must be printable and short.
                guard !pushed.requestURI.isEmpty, pushed.requestURI.count <= 2048,
                      pushed.requestURI.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                    throw RiderError.malformedResponse("the pushed authorization request's request_uri is not a "
                        + "printable URI")
                }
                return pushed.requestURI
            },
            mapError: { TokenErrorMapping.error(for: $0, grant: .pushedAuthorization) })
        request.followsRedirects = false
        return request
    }
}

/// RFC 9126 §2.2's answer. `expires_in` is not kept: the browser opens at once.
struct PushedAuthorizationDTO: Decodable, Sendable {
    var requestURI: String

    enum CodingKeys: String, CodingKey {
        case requestURI = "request_uri"
    }
}

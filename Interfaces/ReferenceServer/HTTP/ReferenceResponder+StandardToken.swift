import Foundation
import HTTPTypes
import Hummingbird

/// The public client (RFC 6749 §2.1: no secret, it could not keep one) that signs in from a
/// command line or desktop program: in the browser with PKCE, or with a device code.
package enum PublicOAuthClient {
    package static let id = "rider-cli"
}

/// The confidential client that `/oauth2/token` accepts.
package enum StandardOAuthClient {
    package static let id = "rider-standard-client"
    /// Holds characters that must be form-encoded inside HTTP Basic (RFC 6749 §2.3.1).
    package static let secret = "s3cret/+=&:"
}

extension ReferenceResponder {
    /// `POST /oauth2/token`: the same grants as `/auth/token`, profiled like a typical standalone
    /// OAuth 2.0 server, so clients are tested against more than RiderKit's own conventions:
    /// the client must authenticate (HTTP Basic with form-encoded id and secret, or both in the
    /// body), and the answer carries only the RFC 6749 §5.1 fields — no `user_id`, no `role`,
    /// and `token_type` in lower case.
    func standardToken(_ request: Request, client: String) async throws -> Response {
        do {
            let form = try await tokenForm(request)
            try Self.authenticateClient(request, form: form)
            let pair = try await grant(request, form: form, client: client)
            return try Responses.json(StandardTokenResponseBody(pair), headers: Self.noStore)
        } catch let error as TokenEndpointError {
            await store.recordFailedTokenRequest()
            var response = Responses.tokenError(error)
            if error.code == "invalid_client" {
                response.headers[.wwwAuthenticate] = #"Basic realm="rider-reference""#
            }
            return response
        }
    }

    /// The client of a device-flow or authorization-code request: `nil` for a request that
    /// names no client (the device flow's anonymous public client), ``PublicOAuthClient/id`` when
    /// it names itself without credentials, else the standard client, which must then
    /// authenticate as at `/oauth2/token`.
    /// - Throws: `invalid_client` for any other client or wrong credentials.
    static func requestingClient(_ request: Request, form: FormFields) throws -> String? {
        let basic = request.headers[.authorization]?.lowercased().hasPrefix("basic ") ?? false
        guard basic || form["client_id"] != nil || form["client_secret"] != nil else { return nil }
        if !basic, form["client_secret"] == nil, form["client_id"] == PublicOAuthClient.id { return PublicOAuthClient.id }
        try authenticateClient(request, form: form)
        return StandardOAuthClient.id
    }

    private static func authenticateClient(_ request: Request, form: FormFields) throws {
        var credentials: (id: String, secret: String)?
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("basic ") {
            let encoded = header.dropFirst("basic ".count).trimmingCharacters(in: .whitespaces)
            guard let decoded = Data(base64Encoded: encoded).flatMap({ String(data: $0, encoding: .utf8) }),
                  let colon = decoded.firstIndex(of: ":"),
                  let id = formDecode(decoded[..<colon]), let secret = formDecode(decoded[decoded.index(after: colon)...])
            else { throw TokenEndpointError.invalidClient }
            credentials = (id, secret)
        } else if let id = form["client_id"], let secret = form["client_secret"] {
            credentials = (id, secret)
        }
        guard let credentials,
              ConstantTime.equals(credentials.id, StandardOAuthClient.id),
              ConstantTime.equals(credentials.secret, StandardOAuthClient.secret)
        else { throw TokenEndpointError.invalidClient }
    }

    private static func formDecode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

/// RFC 6749 §5.1, and OpenID Connect's id_token when `openid` was asked for.
struct StandardTokenResponseBody: Encodable, Sendable {
    let accessToken: String
    /// `bearer`, in lower case as some servers write it; `DPoP` for bound tokens (RFC 9449 §5).
    let tokenType: String
    let expiresIn: Int?
    let refreshToken: String?
    let idToken: String?

    init(_ pair: TokenPair) {
        accessToken = pair.accessToken
        tokenType = pair.jkt == nil ? "bearer" : "DPoP"
        expiresIn = pair.expiresIn
        refreshToken = pair.refreshToken
        idToken = pair.idToken
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
    }
}

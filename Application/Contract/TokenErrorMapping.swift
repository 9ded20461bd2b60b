import Foundation
import RiderDomain

/// Maps token endpoint failures (RFC 6749 §5.2) to `RiderError`, depending on the grant:
/// a rejected password is a login failure, a rejected refresh token ends the session.
package enum TokenErrorMapping {
    package enum Grant: Sendable {
        case password
        case refreshToken
        /// The device authorization grant (RFC 8628): a refused device code is a sign-in that
        /// failed, not a session that ended.
        case deviceCode
        /// The authorization code grant (RFC 6749 §4.1.3) ending a browser sign-in: a refused
        /// code (expired, used, or its PKCE verifier does not match) is a sign-in that failed.
        case authorizationCode
        /// Not a grant: a browser sign-in's request pushed before the browser opens (RFC 9126
        /// §2.3), whose refusals read as the token endpoint's — but end the sign-in, not a session.
        case pushedAuthorization
        /// The client credentials grant (RFC 6749 §4.4): a refusal is the client's configuration,
        /// since no person is involved.
        case clientCredentials
    }

    /// The underlying error of a refusal that names the client itself (`invalid_client`,
    /// `unauthorized_client`): a client registered on the fly is then forgotten, to register again.
    package struct ClientRejected: Error, Hashable, Sendable {}

    /// The error for a failed token endpoint answer, noting the answer's HTTP status.
    package static func error(for response: HTTPResponse, grant: Grant) -> RiderError {
        mapped(response, grant: grant).answered(status: response.status, problem: nil)
    }

    private static func mapped(_ response: HTTPResponse, grant: Grant) -> RiderError {
        let oauth = try? JSONDecoder().decode(OAuthErrorDTO.self, from: response.body)
        let detail = oauth?.errorDescription.map(ProblemMapping.clip)
        switch (oauth?.error, response.status) {
        case ("invalid_grant", _):
            switch grant {
            case .password: return .invalidCredentials
            case .refreshToken: return .sessionExpired
            case .deviceCode: return .authorizationExpired
            case .authorizationCode, .pushedAuthorization: return .authorizationFailed("invalid_grant", description: detail)
            case .clientCredentials:
                return .invalidConfiguration("the token endpoint refused the client's grant" + (detail.map { " (\($0))" } ?? ""))
            }
        case ("unsupported_grant_type", _) where grant == .password, ("unauthorized_client", _) where grant == .password:
            // RFC 9700: providers are closing the password grant; say what else there is.
            return RiderError.invalidConfiguration("the server does not let this client sign in with a password"
                + (detail.map { " (\($0))" } ?? "") + "; sign in with the browser or with a device code, whichever "
                + "the provider offers").suggesting(.signInWithoutPassword(browser: true, deviceCode: true))
        case (_, 401) where grant == .clientCredentials, ("unauthorized_client", _) where grant == .clientCredentials:
            return .invalidConfiguration("the token endpoint refused to issue tokens to the client as itself"
                + (detail.map { " (\($0))" } ?? "") + "; it needs a client secret or key the provider accepts")
        case ("invalid_client", _), ("unauthorized_client", _):
            return .invalidConfiguration(
                "the token endpoint rejected the client id or secret" + (detail.map { " (\($0))" } ?? ""),
                underlying: ClientRejected())
        case (nil, 401) where AuthenticationChallenge.challenges(in: response).contains(where: { $0.isScheme("Basic") }):
            // RFC 6749 §5.2: a Basic challenge from the token endpoint means the client id or
            // secret was refused, even when the error body is missing.
            return .invalidConfiguration("the token endpoint rejected the client id or secret")
        case ("invalid_dpop_proof", _) where grant == .refreshToken:
            // The session's own key was refused: nothing this program can sign will renew it.
            return .sessionExpired
        case ("invalid_dpop_proof", _):
            // RFC 9449 §5 says 400; some providers answer 403. Either way the sign-in failed.
            return .authorizationFailed("invalid_dpop_proof", description: detail)
        case (let error?, 400) where grant == .pushedAuthorization:
            // invalid_request, invalid_scope, invalid_dpop_proof, …: the provider refused what the
            // sign-in asked for, before anyone saw a page.
            return .authorizationFailed(ProblemMapping.clip(error), description: detail)
        case ("unsupported_grant_type", _):
            return .invalidConfiguration("the server does not offer the \(grant.name) grant")
        case ("invalid_scope", _):
            return .invalidConfiguration("the server rejected the requested scope" + (detail.map { " (\($0))" } ?? ""))
        case (_, 400), (_, 401):
            // Any other refusal of a refresh token means it is no longer usable; servers that
            // skip RFC 6749's error body tend to answer a bad password with a bare 401.
            if grant == .refreshToken { return .sessionExpired }
            if response.status == 401 { return .invalidCredentials }
            return oauth == nil ? ProblemMapping.error(for: response)
                : .invalidInput([FieldProblem(field: "request",
                                              message: detail ?? oauth.map { ProblemMapping.clip($0.error) } ?? "rejected")])
        default:
            return ProblemMapping.error(for: response)
        }
    }
}

extension TokenErrorMapping.Grant {
    /// The grant's name in errors.
    var name: String {
        switch self {
        case .password: "password"
        case .refreshToken: "refresh_token"
        case .deviceCode: "device code"
        case .authorizationCode: "authorization code"
        case .pushedAuthorization: "pushed authorization request"
        case .clientCredentials: "client_credentials"
        }
    }
}

import Foundation

extension RiderError: LocalizedError {
    /// One sentence a person can act on. Never contains a token or a password.
    public var errorDescription: String? {
        switch self {
        case .invalidCredentials:
            return "The email or password is not correct."
        case .notSignedIn:
            return "You are not logged in. Run `rider login` first."
        case .sessionExpired:
            return "Your session has expired. Log in again with `rider login`."
        case .awaitingAuthorization:
            return "Your session has expired and you are being asked to sign in again; try once you have."
        case .forbidden(let detail):
            return "You are not allowed to do this" + Self.suffix(detail)
        case .notFound(let detail):
            return "Not found" + Self.suffix(detail)
        case .alreadyExists(let detail):
            return "This already exists" + Self.suffix(detail)
        case .conflict:
            return "The profile was changed elsewhere since you read it; nothing was overwritten. "
                + "Fetch it again and reapply your change."
        case .invalidInput(let problems):
            let list = problems.map(\.description).joined(separator: "; ")
            return "The input was rejected: \(list.isEmpty ? "no reason given" : list)."
        case .invalidAvatar(let problem):
            return "The avatar \(problem.message)."
        case .serverUnreachable(let reason):
            return "The server cannot be reached (\(reason)). Check the address and your connection."
        case .timedOut:
            return "The server did not answer in time. Try again later."
        case .rateLimited(let retryAfter):
            // The value is public and may come from anywhere: Int(_:) traps on inf, nan and > Int.max.
            if let retryAfter, retryAfter.isFinite, retryAfter >= 0, retryAfter < 1e9 {
                return "The server is limiting requests; try again in \(Int(retryAfter.rounded(.up))) s."
            }
            return "The server is limiting requests; try again later."
        case .server(let status, let detail):
            return "The server failed with HTTP \(status)" + Self.suffix(detail)
        case .malformedResponse(let what):
            return "The server sent a response RiderKit cannot read: \(what)."
        case .unsupportedTokenType(let type):
            return "The server issued a token of type '\(type)'; only Bearer tokens are supported."
        case .unsafeRedirect(let target):
            return "The server redirected to \(target); RiderKit does not follow redirects that could expose credentials, lower security or loop."
        case .invalidConfiguration(let what):
            return "The configuration is not usable: \(what)."
        case .storage(let what):
            return "Local storage failed: \(what)."
        }
    }

    private static func suffix(_ detail: String?) -> String {
        guard let detail, !detail.isEmpty else { return "." }
        return detail.hasSuffix(".") ? ": \(detail)" : ": \(detail)."
    }
}

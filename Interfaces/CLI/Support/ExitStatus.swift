import ArgumentParser
import RiderKit

/// The documented exit codes of `rider` (listed in the root command's help).
enum ExitStatus: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2
    case loginFailed = 3
    case notSignedIn = 4
    case notFound = 5
    case conflict = 6
    case network = 7
    case badResponse = 8
    case inputRejected = 9
    case configuration = 10
    case storage = 11

    init(_ error: RiderError) {
        switch error.code {
        case .invalidCredentials, .authorizationDenied, .authorizationExpired, .authorizationFailed,
             .untrustedAuthorizationResponse, .otherAccount: self = .loginFailed
        case .notSignedIn, .sessionExpired, .awaitingAuthorization, .unknownAccount: self = .notSignedIn
        case .notFound: self = .notFound
        case .alreadyExists, .conflict: self = .conflict
        case .serverUnreachable, .timedOut, .rateLimited: self = .network
        case .malformedResponse, .server, .unsupportedTokenType, .unsafeRedirect: self = .badResponse
        case .invalidInput, .invalidAvatar: self = .inputRejected
        case .invalidConfiguration: self = .configuration
        case .storage: self = .storage
        default: self = .failure  // .forbidden, and codes a later RiderKit adds
        }
    }
}

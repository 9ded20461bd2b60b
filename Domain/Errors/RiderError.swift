import Foundation

/// Everything that can go wrong in RiderKit: a ``Code`` to act on, a ``message`` to show, and
/// what caused it.
///
/// Adapters map their own failures (URL errors, file errors, HTTP statuses) into these errors at
/// the seam, so callers never see a technology-specific error as the error itself; the original
/// one is kept in ``underlying`` for logs and diagnosis.
///
/// Built to grow, like async-http-client's `HTTPClientError`: a new ``Code`` is a new static
/// member, not a new enum case, so no caller's `switch` breaks when RiderKit learns a new failure.
/// Switch on the code, and keep a `default`:
///
/// ```swift
/// do {
///     _ = try await rider.login(credentials)
/// } catch RiderError.Code.invalidCredentials {
///     // ask again
/// } catch let error as RiderError where error.code == .serverUnreachable {
///     print(error.message)
/// }
/// ```
///
/// No message, ``description`` or detail ever contains a token or a password.
public struct RiderError: Error, Hashable, Sendable {
    /// What kind of failure this is: stable, comparable, and extensible without breaking callers.
    ///
    /// Its ``description`` is the snake_case name `rider --json` prints as the error's `code`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable machine-readable name, for example `invalid_credentials`.
        public let description: String

        private init(_ name: String) { description = name }

        /// The email or password was not accepted.
        public static let invalidCredentials = Code("invalid_credentials")
        /// No session is stored: sign in first.
        public static let notSignedIn = Code("not_signed_in")
        /// The session can no longer be refreshed (refresh token rejected or missing): sign in again.
        public static let sessionExpired = Code("session_expired")
        /// The person declined the sign-in at the provider's page (`access_denied`).
        public static let authorizationDenied = Code("authorization_denied")
        /// The sign-in was not approved in time: the code expired (`expired_token`) or the wait
        /// ran out. Start a new one.
        public static let authorizationExpired = Code("authorization_expired")
        /// The provider ended the sign-in with an error other than a refusal (`invalid_scope`,
        /// `server_error`, …); ``RiderError/detail`` holds its error code. Nothing was stored.
        public static let authorizationFailed = Code("authorization_failed")
        /// The provider's answer to a sign-in failed a check that protects against forged or
        /// replayed answers (`state`, `iss`, the id_token's signature or claims); nothing was stored.
        public static let untrustedAuthorizationResponse = Code("untrusted_authorization_response")
        /// The session expired and the person is being asked to sign in again right now; the
        /// request was not sent (only when the program chose to fail fast rather than wait).
        public static let awaitingAuthorization = Code("awaiting_authorization")
        /// The server understood the request but the account may not do this.
        public static let forbidden = Code("forbidden")
        /// The thing asked for does not exist (for example an unknown user id).
        public static let notFound = Code("not_found")
        /// The request clashes with existing data (for example the email is already registered).
        public static let alreadyExists = Code("already_exists")
        /// Someone changed the resource since it was read (`If-Match` failed); see ``RiderError/current``.
        public static let conflict = Code("conflict")
        /// The input was rejected; ``RiderError/fieldProblems`` names each field.
        public static let invalidInput = Code("invalid_input")
        /// The picture cannot become the avatar; see ``RiderError/avatarProblem``.
        public static let invalidAvatar = Code("invalid_avatar")
        /// The server could not be reached (down, no route, connection refused or dropped).
        public static let serverUnreachable = Code("server_unreachable")
        /// The server did not answer within the configured timeout.
        public static let timedOut = Code("timed_out")
        /// The server asked the client to slow down; see ``RiderError/retryAfter``.
        public static let rateLimited = Code("rate_limited")
        /// The server failed (5xx) or answered with a status the contract does not allow; see
        /// ``RiderError/status``.
        public static let server = Code("server_error")
        /// The server answered with data that does not follow the contract.
        public static let malformedResponse = Code("malformed_response")
        /// The server issued a token of a type RiderKit cannot use safely (only `Bearer` is supported).
        public static let unsupportedTokenType = Code("unsupported_token_type")
        /// The server redirected somewhere RiderKit will not follow (from https to plain http,
        /// across origins with a body, or too many hops).
        public static let unsafeRedirect = Code("unsafe_redirect")
        /// The configuration is unusable (for example plain http to a remote host, or a bad URL).
        public static let invalidConfiguration = Code("invalid_configuration")
        /// Local storage (token vault or cache) failed; the message says which file or service.
        public static let storage = Code("storage")
        /// No session is stored for the account asked for (`--account`, `RIDER_ACCOUNT`,
        /// `RiderKit.Configuration.account`); ``RiderError/detail`` names the stored ones.
        public static let unknownAccount = Code("unknown_account")
        /// A sign-in on a `RiderKit` bound to one account came back as another account; its tokens
        /// were revoked and nothing was stored.
        public static let otherAccount = Code("other_account")

        /// Lets `catch RiderError.Code.notSignedIn { … }` match any `RiderError` with this code,
        /// whatever its details.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? RiderError)?.code == code
        }
    }

    /// What kind of failure this is.
    public let code: Code
    /// One sentence a person can act on. Never contains a token or a password.
    public let message: String
    /// The specific part of the message: the server's own words for ``Code/forbidden``,
    /// ``Code/notFound``, ``Code/alreadyExists`` and ``Code/server``; the reason for
    /// ``Code/serverUnreachable``; what was wrong for ``Code/malformedResponse``,
    /// ``Code/invalidConfiguration`` and ``Code/storage``; the token type or redirect target
    /// for ``Code/unsupportedTokenType`` and ``Code/unsafeRedirect``.
    public let detail: String?
    /// The rejected fields, for ``Code/invalidInput``.
    public let fieldProblems: [FieldProblem]
    /// Why the picture was refused, for ``Code/invalidAvatar``.
    public let avatarProblem: AvatarProblem?
    /// The server's current version of the resource, for ``Code/conflict`` when it could be
    /// fetched, so the edit can be redone on top of it.
    public let current: Rider?
    /// Seconds the server asked to wait, for ``Code/rateLimited``, when it said.
    public let retryAfter: TimeInterval?
    /// The HTTP status of the answer this error comes from, when there was one.
    public let status: Int?
    /// The RFC 9457 problem details the server sent with its refusal, when it sent some.
    public let problem: ServerProblem?
    /// The failure this error stands for (a file-system, keyring, TLS or decoding error), kept
    /// for logs and diagnosis.
    public let underlying: (any Error)?
    /// What would resolve the error, for a front end to advise in its own terms: ``message`` says
    /// what is wrong in the library's words and names no command; `rider` adds its own
    /// (`rider login`, `rider vault reset`, …) from this.
    package var remedy: Remedy?

    /// An error of any code, for adapters and codes the static factories below do not cover.
    /// - Parameters:
    ///   - code: what kind of failure this is.
    ///   - message: one sentence a person can act on; never a secret.
    ///   - detail: the specific part of the message, if any.
    ///   - underlying: the failure this error stands for.
    public init(code: Code, message: String, detail: String? = nil, underlying: (any Error)? = nil) {
        self.init(code: code, message: message, detail: detail, status: nil, underlying: underlying)
    }

    private init(code: Code, message: String, detail: String? = nil, fieldProblems: [FieldProblem] = [],
                 avatarProblem: AvatarProblem? = nil, current: Rider? = nil, retryAfter: TimeInterval? = nil,
                 status: Int? = nil, problem: ServerProblem? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
        self.fieldProblems = fieldProblems
        self.avatarProblem = avatarProblem
        self.current = current
        self.retryAfter = retryAfter
        self.status = status
        self.problem = problem
        self.underlying = underlying
    }

    /// The same error, noting the HTTP status and problem details of the answer it comes from
    /// (problem details already noted are kept when `problem` is `nil`).
    package func answered(status: Int, problem: ServerProblem?) -> RiderError {
        var answered = RiderError(code: code, message: message, detail: detail, fieldProblems: fieldProblems,
                                  avatarProblem: avatarProblem, current: current, retryAfter: retryAfter,
                                  status: status, problem: problem ?? self.problem, underlying: underlying)
        answered.remedy = remedy
        return answered
    }

    /// The same error, with what would resolve it.
    package func suggesting(_ remedy: Remedy) -> RiderError {
        var suggesting = self
        suggesting.remedy = remedy
        return suggesting
    }

    /// What would resolve an error, as a step a person takes; a front end says it in its terms.
    package enum Remedy: Hashable, Sendable {
        /// Sign in (again).
        case signIn
        /// Sign in without a password: with the browser, with a device code, as the provider offers.
        case signInWithoutPassword(browser: Bool, deviceCode: Bool)
        /// Name the provider (its issuer), so that a sign-in without a password can start, then sign in.
        case nameProviderToSignInWithoutPassword
        /// Set the client id the provider registered for this program.
        case setClientID
        /// Give the encrypted file's passphrase (none was given).
        case givePassphrase
        /// Check the passphrase given for the encrypted file (it does not open it).
        case checkPassphrase
        /// Remove the stored session (it cannot be read), then sign in again.
        case resetVault
        /// Bind a session file from before sessions were bound to this server, else remove it.
        case adoptOrResetVault
        /// Keep the user cache in memory instead of in a file.
        case cacheInMemory
        /// Empty the user cache, which starts it afresh.
        case clearCache
        /// Look the id up in the sport catalogue.
        case listSports
        /// Read the signed-in user once while online, so the cache has it.
        case readWhileOnline
    }

    // MARK: Equal when they say the same thing; where it came from (status, problem details,
    // underlying error) is not compared, and the underlying error need not be comparable.

    /// Whether both errors have the same code, message and details; ``status``, ``problem`` and
    /// ``underlying`` are not compared.
    public static func == (lhs: RiderError, rhs: RiderError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.detail == rhs.detail
            && lhs.fieldProblems == rhs.fieldProblems && lhs.avatarProblem == rhs.avatarProblem
            && lhs.current == rhs.current && lhs.retryAfter == rhs.retryAfter
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(detail)
    }
}

// MARK: - One factory per code, with the sentence a person reads

extension RiderError {
    /// The email or password was not accepted.
    public static let invalidCredentials = RiderError(
        code: .invalidCredentials, message: "The email or password is not correct.")

    /// No session is stored: sign in first.
    public static let notSignedIn = RiderError(
        code: .notSignedIn, message: "You are not signed in.").suggesting(.signIn)

    /// The session can no longer be refreshed: sign in again.
    public static let sessionExpired = RiderError(
        code: .sessionExpired, message: "Your session has expired; sign in again.").suggesting(.signIn)

    /// The person declined the sign-in at the provider's page.
    public static let authorizationDenied = RiderError(
        code: .authorizationDenied, message: "The sign-in was declined at the provider's page; nothing was stored.")

    /// The sign-in was not approved before its code expired.
    public static let authorizationExpired = RiderError(
        code: .authorizationExpired,
        message: "The sign-in was not approved in time and its code has expired; nothing was stored. Start again.")

    /// No answer came back from the browser in time; nothing was stored.
    /// - Parameter seconds: how long RiderKit waited.
    package static func authorizationTimedOut(after seconds: TimeInterval) -> RiderError {
        let wait = seconds.isFinite && seconds >= 0 && seconds < 1e9 ? "\(Int(seconds.rounded())) s" : "the time allowed"
        return RiderError(code: .authorizationExpired,
                          message: "The sign-in was not completed in the browser within \(wait); nothing was stored. "
                              + "Start again.")
    }

    /// The provider ended the sign-in with an error.
    /// - Parameters:
    ///   - error: its OAuth error code (`invalid_scope`, `server_error`, …), as text a terminal
    ///     can show safely.
    ///   - description: its `error_description`, as safe text, if any.
    package static func authorizationFailed(_ error: String, description: String?) -> RiderError {
        RiderError(code: .authorizationFailed,
                   message: "The provider ended the sign-in with the error '\(error)'"
                       + suffix(description.map { "\"\($0)\"" }) + " Nothing was stored.",
                   detail: error)
    }

    /// The provider's answer failed a check against forgery; nothing was stored.
    /// - Parameter what: which check, in words ("the state does not match the request").
    package static func untrustedAuthorizationResponse(_ what: String) -> RiderError {
        RiderError(code: .untrustedAuthorizationResponse,
                   message: "The answer to the sign-in was refused: \(what). Nothing was stored; if you did not "
                       + "start this sign-in yourself, someone may be trying to sign you in to their account.",
                   detail: what)
    }

    /// The person is being asked to sign in again right now; the request was not sent.
    public static let awaitingAuthorization = RiderError(
        code: .awaitingAuthorization,
        message: "Your session has expired and you are being asked to sign in again; try once you have.")

    /// The server understood the request but the account may not do this.
    /// - Parameter detail: the server's explanation, if any.
    package static func forbidden(detail: String?) -> RiderError {
        RiderError(code: .forbidden, message: "You are not allowed to do this" + suffix(detail), detail: detail)
    }

    /// A protected resource refused the request for want of a scope the session was not granted
    /// (RFC 6750 §3.1 `insufficient_scope`), and no sign-in asking for it was made or it did not
    /// get it. Code ``Code/forbidden``; its underlying ``InsufficientScope`` names the scope.
    /// - Parameter scope: the scope the resource asked for, when it named one.
    package static func insufficientScope(_ scope: String?) -> RiderError {
        let what = scope.map { "the resource asks for the scope '\($0)', which the session was not granted" }
            ?? "the resource asks for a scope the session was not granted"
        return RiderError(code: .forbidden, message: "You are not allowed to do this: \(what).", detail: what,
                          underlying: InsufficientScope(scope: scope))
    }

    /// The thing asked for does not exist.
    /// - Parameter detail: the server's explanation, if any.
    package static func notFound(detail: String?) -> RiderError {
        RiderError(code: .notFound, message: "Not found" + suffix(detail), detail: detail)
    }

    /// The request clashes with existing data.
    /// - Parameter detail: the server's explanation, if any.
    package static func alreadyExists(detail: String?) -> RiderError {
        RiderError(code: .alreadyExists, message: "This already exists" + suffix(detail), detail: detail)
    }

    /// Someone changed the resource since it was read; nothing was overwritten.
    /// - Parameter current: the server's current version, when it could be fetched.
    package static func conflict(current: Rider?) -> RiderError {
        RiderError(code: .conflict,
                   message: "The profile was changed elsewhere since you read it; nothing was overwritten. "
                       + "Fetch it again and reapply your change.",
                   current: current)
    }

    /// The input was rejected.
    /// - Parameter problems: each rejected field and why.
    package static func invalidInput(_ problems: [FieldProblem]) -> RiderError {
        let list = problems.map(\.description).joined(separator: "; ")
        return RiderError(code: .invalidInput,
                          message: "The input was rejected: \(list.isEmpty ? "no reason given" : list).",
                          fieldProblems: problems)
    }

    /// The picture cannot become the avatar (raised before anything is sent when RiderKit can tell).
    package static func invalidAvatar(_ problem: AvatarProblem) -> RiderError {
        RiderError(code: .invalidAvatar, message: "The avatar \(problem.message).", avatarProblem: problem)
    }

    /// The server could not be reached.
    /// - Parameters:
    ///   - reason: what happened, in a few words ("connection to api.example.com refused").
    ///   - underlying: the transport's own error.
    public static func serverUnreachable(reason: String, underlying: (any Error)? = nil) -> RiderError {
        RiderError(code: .serverUnreachable,
                   message: "The server cannot be reached (\(reason)). Check the address and your connection.",
                   detail: reason, underlying: underlying)
    }

    /// The server did not answer within the configured timeout.
    public static let timedOut = RiderError(
        code: .timedOut, message: "The server did not answer in time. Try again later.")

    /// The server asked the client to slow down.
    /// - Parameter retryAfter: the seconds it asked to wait, when it said.
    package static func rateLimited(retryAfter: TimeInterval?) -> RiderError {
        // The value may come from anywhere: Int(_:) traps on inf, nan and > Int.max.
        let message = if let retryAfter, retryAfter.isFinite, retryAfter >= 0, retryAfter < 1e9 {
            "The server is limiting requests; try again in \(Int(retryAfter.rounded(.up))) s."
        } else {
            "The server is limiting requests; try again later."
        }
        return RiderError(code: .rateLimited, message: message, retryAfter: retryAfter, status: 429)
    }

    /// The server failed (5xx) or answered with a status the contract does not allow.
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - detail: the server's explanation, if any.
    package static func server(status: Int, detail: String?) -> RiderError {
        RiderError(code: .server, message: "The server failed with HTTP \(status)" + suffix(detail),
                   detail: detail, status: status)
    }

    /// The server answered with data that does not follow the contract.
    /// - Parameters:
    ///   - what: what was wrong ("the user is not valid (missing field 'id')").
    ///   - underlying: the decoding error, when it carries no data from the answer.
    public static func malformedResponse(_ what: String, underlying: (any Error)? = nil) -> RiderError {
        RiderError(code: .malformedResponse, message: "The server sent a response RiderKit cannot read: \(what).",
                   detail: what, underlying: underlying)
    }

    /// The server issued a token of a type RiderKit cannot use safely.
    /// - Parameter type: the `token_type` it sent.
    package static func unsupportedTokenType(_ type: String) -> RiderError {
        RiderError(code: .unsupportedTokenType,
                   message: "The server issued a token of type '\(type)'; only Bearer tokens are supported.",
                   detail: type)
    }

    /// The server redirected somewhere RiderKit will not follow.
    /// - Parameter target: the target's origin.
    package static func unsafeRedirect(_ target: String) -> RiderError {
        RiderError(code: .unsafeRedirect,
                   message: "The server redirected to \(target); RiderKit does not follow redirects that could "
                       + "expose credentials, lower security or loop.",
                   detail: target)
    }

    /// The configuration is unusable.
    /// - Parameters:
    ///   - what: what is wrong and, where it helps, what to do.
    ///   - underlying: the error that revealed it.
    public static func invalidConfiguration(_ what: String, underlying: (any Error)? = nil) -> RiderError {
        RiderError(code: .invalidConfiguration, message: "The configuration is not usable: \(what).",
                   detail: what, underlying: underlying)
    }

    /// Local storage (token vault or cache) failed.
    /// - Parameters:
    ///   - what: which file or service, what happened, and what to do.
    ///   - underlying: the file-system, keyring or database error.
    public static func storage(_ what: String, underlying: (any Error)? = nil) -> RiderError {
        RiderError(code: .storage, message: "Local storage failed: \(what).", detail: what, underlying: underlying)
    }

    /// No session is stored for `requested` on `server`.
    /// - Parameters:
    ///   - requested: the account asked for, by email or id.
    ///   - server: the server's origin.
    ///   - stored: the accounts that are stored there, as a person names them.
    package static func unknownAccount(_ requested: String, server: String, stored: [String]) -> RiderError {
        let known = stored.isEmpty ? "no account is signed in there"
            : "the stored accounts are \(stored.joined(separator: ", "))"
        let error = RiderError(code: .unknownAccount,
                               message: "No session is stored for the account '\(requested)' on \(server): \(known).",
                               detail: stored.joined(separator: ", "))
        return stored.isEmpty ? error.suggesting(.signIn) : error
    }

    /// A sign-in on a `RiderKit` bound to `bound` came back as `signedIn`.
    /// - Parameters:
    ///   - signedIn: the account the provider signed in, as a person names it.
    ///   - bound: the account this `RiderKit` speaks for.
    package static func otherAccount(signedIn: String, bound: String) -> RiderError {
        RiderError(code: .otherAccount,
                   message: "The sign-in came back as \(signedIn), but this is \(bound)'s session; nothing was "
                       + "stored. Sign in without choosing an account (no --account) to add \(signedIn).",
                   detail: signedIn)
    }

    private static func suffix(_ detail: String?) -> String {
        guard let detail, !detail.isEmpty else { return "." }
        return detail.hasSuffix(".") ? ": \(detail)" : ": \(detail)."
    }
}

// MARK: - How it prints

extension RiderError: LocalizedError, CustomStringConvertible, CustomDebugStringConvertible {
    /// The ``message``.
    public var errorDescription: String? { message }

    /// The ``message``.
    public var description: String { message }

    /// The code, the message and the type of the underlying error (never its text, which
    /// RiderKit does not control).
    public var debugDescription: String {
        var text = "RiderError(\(code): \(message)"
        if let status { text += " [HTTP \(status)]" }
        if let underlying { text += " underlying: \(type(of: underlying))" }
        return text + ")"
    }
}

/// Why a request was refused as ``RiderError/Code/forbidden`` when a protected resource wanted a
/// scope the session lacks (`insufficient_scope`): the scope it named.
public struct InsufficientScope: Error, Hashable, Sendable {
    /// The space-separated scope the resource asked for, when it named one.
    public let scope: String?

    package init(scope: String?) { self.scope = scope }
}

import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure

/// An access token a program was given rather than one a sign-in got: a CI job's secret, a token
/// a person copied from the provider. It comes with no refresh token, so it is used as it is until
/// the server refuses it, and never renewed.
///
/// Two uses: ``RiderKit/Configuration/accessToken`` runs a `RiderKit` on it alone, keeping nothing
/// anywhere (`RIDER_TOKEN` in `rider`); ``RiderKit/signIn(withAccessToken:)`` keeps it as the
/// server's session, in the vault (`rider login --with-token`).
///
/// Its `description` never shows the token.
package struct GivenAccessToken: Sendable, CustomStringConvertible {
    package let value: String

    /// The token in `text`, without the whitespace around it (the newline of a file or a pipe).
    /// - Throws: ``RiderError/invalidInput(_:)`` naming `source` when it is empty, over 16 KiB, or
    ///   holds characters a bearer token cannot (RFC 6750 §2.1: visible ASCII, no spaces) — the
    ///   token itself is never quoted.
    package init(_ text: String, source: String = "access token") throws {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else {
            throw RiderError.invalidInput([FieldProblem(field: source, message: "is empty")])
        }
        // A line break or a space here would end up inside the Authorization header of every request.
        guard token.utf8.count <= 16 * 1024, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw RiderError.invalidInput([FieldProblem(field: source, message: "is not a bearer token: it holds spaces "
                + "or characters outside visible ASCII, or is over 16 KiB")])
        }
        value = token
    }

    package var description: String { "GivenAccessToken(<redacted>)" }

    /// The session it stands for before anyone asked whose it is: no refresh token, an expiry the
    /// server's refusal tells.
    func provisionalSession(issuedAt now: Date) -> Session {
        Session(accessToken: value, refreshToken: nil, expiresAt: nil, userID: UserID(""), role: nil, issuedAt: now)
    }
}

extension RiderKit {
    /// Keeps `token` as the signed-in session of this server, as a sign-in would, once the API
    /// says whose it is (`GET /auth/me`). It is never renewed: when the server refuses it, the
    /// session ends.
    /// - Returns: the session, already in the vault.
    /// - Throws: ``RiderError/sessionExpired`` (worded for a given token) when the server refuses
    ///   the token; network errors; ``RiderError/storage(_:underlying:)`` when it cannot be kept.
    package func signIn(withAccessToken token: GivenAccessToken) async throws -> Session {
        let provisional = token.provisionalSession(issuedAt: sessions.clock.now)
        let session: Session
        do {
            session = try await sessions.service.signedIn(provisional, namedByGrant: false)
        } catch RiderError.Code.sessionExpired {
            throw RiderError.givenTokenRefused
        }
        try await sessions.establish(session)
        return session
    }

    /// A `RiderKit` that sends `token` with every authorized request and keeps nothing: the session
    /// lives in memory, users are cached in memory, and nobody is asked to sign in again.
    static func givenAccessToken(_ token: GivenAccessToken, configuration: Configuration, transport: any HTTPTransport,
                                 clock: any Clock, authorizationServer: AuthorizationServer) -> RiderKit {
        RiderKit(api: configuration.api, transport: transport,
                 vault: InMemoryTokenVault(session: token.provisionalSession(issuedAt: clock.now)),
                 cache: InMemoryUserCache(), clock: clock, lock: InProcessRefreshLock(),
                 cacheSettings: configuration.cache.settings, clearsCacheOnLogout: true,
                 identity: configuration.identity, sportCatalogue: InMemorySportCatalogueCache(),
                 reauthentication: nil, metrics: configuration.metrics ?? NoMetrics(),
                 avatarUpload: UploadAvatar.Configuration(), logger: configuration.logger,
                 authorizationServer: authorizationServer, userAgent: configuration.userAgent,
                 tracer: configuration.tracer)
    }
}

extension RiderError {
    /// A given access token (``GivenAccessToken``) the server would not take.
    package static let givenTokenRefused = RiderError(
        code: .sessionExpired,
        message: "The server refused the access token given (expired, revoked, or not one of its tokens); nothing "
            + "was stored.")
}

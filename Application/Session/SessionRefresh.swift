import Foundation
import RiderDomain

/// One refresh's I/O, as the session engine's ``SessionMachine`` directs it: under the
/// cross-process lock, what the vault holds now (another process may have renewed or ended the
/// session meanwhile), then the token endpoint, then the vault again. Each thing learnt goes to
/// the machine as a ``SessionMachine/RefreshEvent``; what it answers is done next.
///
/// Stateless: the engine runs one at a time per process, in a task every waiter joins.
struct SessionRefresh: Sendable {
    let vault: any TokenVault
    let lock: any RefreshLock
    let metrics: any MetricsRecorder
    let tracer: any SpanTracer

    /// Renews `current` in a span of its own (`rider.session.refresh`), a child of the request
    /// that started it, with how many other callers waited for it.
    /// - Parameters:
    ///   - context: sends the refresh token (the service checks the answer: the same account, its
    ///     id_token as at sign-in).
    ///   - waiters: how many callers joined, read when the refresh ends.
    ///   - step: hands an event to the machine; returns its action.
    ///   - session: the session a granted answer describes.
    /// - Throws: `RiderError.sessionExpired` (rejected, or replaced or ended meanwhile),
    ///   `RiderError.untrustedAuthorizationResponse(_:)` for a refused answer, network errors (the
    ///   session is kept), `RiderError.storage(_:)`.
    func renew(_ current: Session, in context: SignInContext, waiters: @escaping @Sendable () async -> Int,
               step: @escaping @Sendable (SessionMachine.RefreshEvent) async -> SessionMachine.RefreshAction,
               session: @escaping @Sendable (TokenGrant) async throws -> Session) async throws -> Session {
        try await tracer.withSpan("rider.session.refresh", kind: .internal) { @Sendable span in
            let outcome: Result<Session, any Error>
            do {
                outcome = .success(try await lock.withLock {
                    try await renewHoldingLock(current, in: context, step: step, session: session)
                })
            } catch {
                outcome = .failure(error)
            }
            span.setAttribute("rider.refresh.waiters", .int(await waiters()))
            return try outcome.get()
        }
    }

    private func renewHoldingLock(_ current: Session, in context: SignInContext,
                                  step: @Sendable (SessionMachine.RefreshEvent) async -> SessionMachine.RefreshAction,
                                  session: @Sendable (TokenGrant) async throws -> Session) async throws -> Session {
        var action = await step(.stored(try await vault.loadSession()))
        // A session without a refresh token whose access token the server refused: said so.
        var refused = false
        while true {
            switch action {
            case .adopt(let stored):
                return stored
            case .expire:
                throw refused ? RiderError.accessTokenRefused : RiderError.sessionExpired
            case .remove:
                refused = refused || current.refreshToken == nil
                // The session is unusable either way; the caller learns it expired, which is the
                // actionable part. A stale vault entry will be rejected again next time.
                try? await vault.removeSession()
                action = await step(.removed)
            case .send, .reissue:
                let grant: TokenGrant
                do {
                    if case .send(let refreshToken) = action {
                        grant = try await context.granted(.refresh(current, with: refreshToken))
                    } else {
                        grant = try await context.granted(.clientCredentials)
                    }
                } catch RiderError.Code.sessionExpired {
                    metrics.record(.refresh(.rejected))
                    action = await step(.rejected)
                    continue
                } catch let refused as RefusedRefreshAnswer {
                    // Terminal as a rejection is: the refresh token sent is spent, and keeping it
                    // would send it again (a provider's reuse detection ends every session of the
                    // grant); the service revoked the answer's tokens.
                    metrics.record(.refresh(.rejected))
                    if await step(.rejected) == .remove {
                        try? await vault.removeSession()
                        _ = await step(.removed)
                    }
                    throw refused.error
                } catch {
                    metrics.record(.refresh(.failed))
                    throw error
                }
                metrics.record(.refresh(.renewed))
                action = await step(.renewed(try await session(grant)))
            case .save(let renewed):
                do {
                    try await vault.saveSession(renewed)
                } catch {
                    // Still under the refresh lock: no other process refreshes with the retired
                    // token until this verdict is out. Saying what happened is all that is left.
                    throw RiderError.storage("the server renewed the session, but it could not be saved "
                        + "(\(Self.describe(error))). It is kept only in memory, for as long as this program "
                        + "runs; after that, sign in again. To avoid this, fix the vault or choose one that works "
                        + "(the automatic or encrypted-file vault setting)", underlying: error)
                }
                return renewed
            }
        }
    }

    /// A vault failure in words, without the "Local storage failed" wrapper it may already have.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? RiderError, error.code == .storage, let what = error.detail { return what }
        return (error as? any LocalizedError)?.errorDescription ?? "\(type(of: error))"
    }
}

extension RiderError {
    /// The server refused the access token of a session that has no refresh token (one given by
    /// hand, or from a server that issues none): the session is over.
    package static let accessTokenRefused = RiderError(
        code: .sessionExpired,
        message: "The server refused the access token, and the session has no refresh token to renew it with; "
            + "sign in again.").suggesting(.signIn)

    /// A renewal was asked for a session that has no refresh token; the session is kept.
    package static let cannotRenew = RiderError(
        code: .sessionExpired,
        message: "The session has no refresh token, so it cannot be renewed; its access token is used until the "
            + "server refuses it.")
}

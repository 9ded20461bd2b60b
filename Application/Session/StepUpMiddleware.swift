import Foundation
import RiderDomain

/// When a protected resource refuses an authorized request for want of a scope the session was
/// not granted (`403` with a `Bearer` or `DPoP` challenge whose `error` is `insufficient_scope`,
/// RFC 6750 §3.1, as the MCP authorization specification's step-up uses it), has the session
/// engine sign in again asking for that scope too (``SessionEngine/stepUp(to:from:)``, through
/// the program's ``Reauthentication``) and sends the request once more.
///
/// At most one step-up per request: a resource that refuses the new session again for a scope
/// gets its refusal through, as ``RiderError/insufficientScope(_:)`` naming what it asked for —
/// a resource that keeps asking for more would otherwise keep the person signing in. Without a
/// ``Reauthentication`` (a script, CI) the `403` itself goes through at once, for the caller to
/// read (RiderKit's endpoints map it to the same error).
///
/// Around the retries and the session's step, as ``ReauthenticationMiddleware`` is, so the request
/// is sent again whole. Requests that are not ``RequestOptions/isAuthorized`` pass through.
package struct StepUpMiddleware: HTTPMiddleware {
    private let sessions: SessionEngine

    /// - Parameter sessions: signs in again, once however many requests ask for the same scope.
    package init(sessions: SessionEngine) {
        self.sessions = sessions
    }

    /// - Throws: what `next` and ``SessionEngine/stepUp(to:from:)`` throw;
    ///   ``RiderError/insufficientScope(_:)`` when the request is refused for a scope again.
    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                           next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        guard options.isAuthorized else { return try await next(request) }
        let response = try await next(request)
        // With nobody to ask, the answer goes on as it is: the caller reads the refusal (RiderKit's
        // endpoints as RiderError.insufficientScope, an MCP transport as its own typed error).
        guard response.status == 403, let wanted = AuthenticationChallenge.insufficientScope(in: response),
              let scope = wanted.scope, !scope.isEmpty, await sessions.asksForStepUp,
              let current = try? await sessions.standing().session else { return response }
        _ = try await sessions.stepUp(to: scope, from: current)
        let retried = try await next(request)
        if retried.status == 403, let again = AuthenticationChallenge.insufficientScope(in: retried) {
            throw RiderError.insufficientScope(again.scope ?? scope)
        }
        return retried
    }
}

import Foundation
import RiderDomain

/// A way to sign in, as a value: a password, a device code, the browser. Each runs its steps
/// against the provider and returns the tokens it was issued; the session engine makes the
/// session of them, the same way for every flow. (AppAuth's authorization and token requests.)
///
/// The use cases (``Login``, ``SignInWithDeviceCode``, ``SignInWithBrowser``) build one and run
/// it. A ``Reauthentication`` returns one, so a session that expired for good can be renewed
/// with any of them, not only with a password:
///
/// ```swift
/// Reauthentication { _ in .browser() }
/// ```
public struct SignInFlow: Sendable {
    /// The flow's steps, ending with the tokens the token endpoint issued and the service checked.
    package let run: @Sendable (SignInContext) async throws -> TokenGrant

    package init(run: @escaping @Sendable (SignInContext) async throws -> TokenGrant) {
        self.run = run
    }

    /// Signs in with an email and password (RFC 6749 §4.3, for servers that still offer it): the
    /// password goes to the token endpoint once and is kept nowhere.
    ///
    /// Running it throws `RiderError.invalidInput(_:)` for an empty email or password,
    /// `RiderError.invalidCredentials`, and `RiderError.invalidConfiguration(_:)` when the provider
    /// does not offer the password grant (nothing is sent then).
    public static func password(_ credentials: Credentials) -> SignInFlow {
        SignInFlow { context in
            var problems: [FieldProblem] = []
            let email = credentials.email.trimmingCharacters(in: .whitespacesAndNewlines)
            if email.isEmpty { problems.append(FieldProblem(field: "email", message: "is required")) }
            if credentials.password.isEmpty { problems.append(FieldProblem(field: "password", message: "is required")) }
            guard problems.isEmpty else { throw RiderError.invalidInput(problems) }

            if let refusal = try await context.service.server.passwordGrantRefusal() { throw refusal }
            var grant = try await context.granted(.password(Credentials(email: email, password: credentials.password)))
            // The email the server just accepted names the account in `rider session list`; an
            // id_token's or userinfo's identity, when the provider sent one, stands.
            grant.identity = grant.identity ?? AccountIdentity(email: email, name: nil, source: .credentials)
            return grant
        }
    }

    /// Signs in with a device code (RFC 8628): asks the provider for a code, hands it to
    /// `prompt` to show the person (the page to open and the code to enter there), then polls
    /// until they approve, refuse, or the code expires.
    ///
    /// Running it throws `RiderError.invalidConfiguration(_:)` when the provider offers no device
    /// sign-in, `RiderError.authorizationDenied`, `RiderError.authorizationExpired`, and what the
    /// network throws. Cancel the task to stop polling.
    public static func deviceCode(prompt: @escaping @Sendable (DeviceAuthorization) async -> Void) -> SignInFlow {
        SignInFlow { context in
            let authorization = try await context.service.requestDeviceAuthorization()
            await prompt(authorization)
            return try await deviceCodeGrant(for: authorization, in: context, clock: context.clock)
        }
    }

    /// Polls the token endpoint for `authorization` until the person decided, waiting on `clock`.
    package static func deviceCodeGrant(for authorization: DeviceAuthorization, in context: SignInContext,
                                        clock: any Clock) async throws -> TokenGrant {
        var interval = authorization.interval
        while true {
            // RFC 8628 §3.5: the interval comes before the first poll too.
            try await clock.sleep(for: interval)
            switch try await context.service.perform(.deviceCode(authorization), clockSkew: context.clockSkew) {
            case .granted(let grant): return grant
            case .slowDown: interval += 5
            case .pending: break
            }
            // The provider would say expired_token too; a provider that keeps saying "pending"
            // must not keep the program waiting past the code's life.
            if clock.now >= authorization.expiresAt { throw RiderError.authorizationExpired }
        }
    }
}

/// What a ``SignInFlow`` runs with: the token service, the clock, and the pieces a browser
/// sign-in needs.
package struct SignInContext: Sendable {
    package let service: AuthorizationService
    package let clock: any Clock
    /// The server's clock ahead of the device's, as last measured (for checking an id_token when
    /// the answer carries no `Date`).
    package let clockSkew: TimeInterval

    package init(service: AuthorizationService, clock: any Clock, clockSkew: TimeInterval) {
        self.service = service
        self.clock = clock
        self.clockSkew = clockSkew
    }

    /// The tokens `request` was granted, its answer checked by the service.
    package func granted(_ request: TokenRequest) async throws -> TokenGrant {
        guard case .granted(let grant) = try await service.perform(request, clockSkew: clockSkew) else {
            throw RiderError.malformedResponse("the token endpoint asked to wait, which only a device sign-in may")
        }
        return grant
    }
}

import Foundation
import RiderDomain

/// Signs in on a device without a browser or keyboard worth the name (RFC 8628): the person
/// approves on another device, at the provider's page, with a short code.
///
/// ```swift
/// let pending = try await rider.signInWithDeviceCode.start()
/// print("Open \(pending.verificationURI) and enter \(pending.userCode)")
/// let session = try await rider.signInWithDeviceCode.complete(pending)
/// ```
///
/// No password passes through the program. Nothing is stored until the person approves; a
/// declined, expired or cancelled sign-in stores nothing.
public struct SignInWithDeviceCode: Sendable {
    let sessions: SessionEngine
    let clock: any Clock

    package init(sessions: SessionEngine, clock: any Clock) {
        self.sessions = sessions
        self.clock = clock
    }

    /// Asks the provider for a device sign-in.
    /// - Returns: the code to show and the page to show it at.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when the provider offers no device
    ///   sign-in (set `issuer`, or the device authorization endpoint), `RiderError.malformedResponse(_:)`
    ///   for an answer RiderKit will not show (a page that is not https, a user code that is not
    ///   a short line of text), network errors.
    public func start() async throws -> DeviceAuthorization {
        try await sessions.service.requestDeviceAuthorization()
    }

    /// Waits for the person to approve `authorization`, asking the provider at the interval it
    /// set (5 seconds longer each time it says `slow_down`), then stores the session.
    ///
    /// Cancel the task to stop waiting: nothing is stored then.
    /// - Returns: the new session, already in the vault.
    /// - Throws: `RiderError.authorizationDenied` when the person declined,
    ///   `RiderError.authorizationExpired` when the code expired first, `CancellationError`,
    ///   network and storage errors.
    public func complete(_ authorization: DeviceAuthorization) async throws -> Session {
        let clock = clock
        return try await sessions.signIn(SignInFlow(granting: {
            try await SignInFlow.deviceCodeGrant(for: authorization, in: $0, clock: clock)
        }))
    }
}

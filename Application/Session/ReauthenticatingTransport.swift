import Foundation
import RiderDomain

/// Sends authorized requests and, when one finds the session expired for good, has the
/// ``ReauthenticationGate`` sign the person in again and sends it once more.
///
/// A decorator around the authorizing (and retrying) transport, so the session engine and its
/// single-flight refresh stay as they are.
struct ReauthenticatingTransport: HTTPTransport {
    let base: any HTTPTransport
    let gate: ReauthenticationGate
    let sessions: SessionEngine

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await gate.admit()
        let before = try? await sessions.currentSession()
        let epoch = await gate.epoch
        do {
            return try await base.send(request)
        } catch let error as RiderError where error == .sessionExpired || error == .notSignedIn {
            // Never signed in: there is nothing to renew.
            guard let before else { throw error }
            // `.notSignedIn` after having a session: another request found it expired and ended it
            // (the same expiry seen from behind) — or the person logged out, which must stand.
            if error == .notSignedIn, await !sessionEndedByExpiry() { throw error }
            // If someone was already asked since this request started and declined, do not ask again.
            let mayAsk = await gate.epoch == epoch
            guard try await gate.reauthenticate(after: before.accessToken, userID: before.userID, mayAsk: mayAsk) != nil
            else { throw RiderError.sessionExpired }
            return try await base.send(request)
        }
    }

    /// Whether the engine's latest state is "signed out because the session expired".
    private func sessionEndedByExpiry() async -> Bool {
        for await state in await sessions.states() {
            return state == .signedOut(reason: .sessionExpired)
        }
        return false
    }
}

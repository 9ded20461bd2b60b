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
        let admission = try await gate.admit()
        // Read after admission, so a request that waited for a question starts from its outcome.
        // An expired session counts: a request starting after the expiry, before anyone is asked,
        // belongs to the same expiry as the request that found it.
        let startedUnder = try? await sessions.standing().session
        do {
            return try await base.send(request)
        } catch RiderError.sessionExpired {
            // Nobody was signed in when this request started: there is nothing of its own to renew.
            guard let startedUnder else { throw RiderError.sessionExpired }
            _ = try await gate.sessionAfterExpiry(of: startedUnder, admission: admission)
            return try await base.send(request)
        }
    }
}

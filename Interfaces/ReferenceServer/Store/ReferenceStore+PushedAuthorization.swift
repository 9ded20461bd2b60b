import Foundation

/// Pushed authorization requests (RFC 9126): a checked authorization request kept under a
/// one-time `request_uri` until the browser brings it to the authorization endpoint.
extension ReferenceStore {
    /// How long a `request_uri` can be used (`expires_in`; RFC 9126 §2.2 suggests 5 to 600 s:
    /// long enough to open a browser and load the page, short enough that a leaked one is dead).
    static let pushedRequestLifetime = 90
    /// RFC 9126 §2.2: the prefix of a `request_uri` this server issues.
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"

    /// A request pushed and not yet used.
    struct PushedRequest: Sendable {
        let request: AuthorizationRequest
        let expiresAt: Date
        let sequence: UInt64
    }

    /// Keeps `request` and returns the `request_uri` that names it, and its lifetime in seconds.
    func push(_ request: AuthorizationRequest) -> (requestURI: String, expiresIn: Int) {
        let now = now()
        for (uri, kept) in pushedRequests where kept.expiresAt <= now { pushedRequests[uri] = nil }
        if pushedRequests.count >= Self.maximumAuthorizations,
           let oldest = pushedRequests.min(by: { $0.value.sequence < $1.value.sequence }) {
            pushedRequests[oldest.key] = nil
        }
        let uri = Self.requestURIPrefix + tokenGenerator.next()
        pushedRequests[uri] = PushedRequest(
            request: request, expiresAt: now.addingTimeInterval(TimeInterval(Self.pushedRequestLifetime)),
            sequence: deviceSequence)
        deviceSequence += 1
        return (uri, Self.pushedRequestLifetime)
    }

    /// The request `requestURI` names, taken once (RFC 9126 §4: a `request_uri` is used once),
    /// when it is still valid and was pushed by `clientID`.
    func takePushedRequest(_ requestURI: String, clientID: String) -> AuthorizationRequest? {
        guard let pushed = pushedRequests.removeValue(forKey: requestURI), pushed.expiresAt > now(),
              pushed.request.clientID == clientID else { return nil }
        return pushed.request
    }
}

extension ReferenceStore {
    /// Records a client assertion's `jti` until `expiry` (RFC 7523 §3 item 7: a server may refuse
    /// a `jti` it has seen); `false` when it was seen already.
    func spendClientAssertion(_ jti: String, until expiry: Date) -> Bool {
        let now = now()
        if spentClientAssertions.count >= Self.maximumAuthorizations {
            for (id, kept) in spentClientAssertions where kept <= now { spentClientAssertions[id] = nil }
        }
        guard spentClientAssertions[jti].map({ $0 <= now }) ?? true else { return false }
        spentClientAssertions[jti] = expiry
        return true
    }
}

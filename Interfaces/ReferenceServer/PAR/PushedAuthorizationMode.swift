/// Whether the reference server takes pushed authorization requests (RFC 9126), and whether it
/// requires them.
package enum PushedAuthorizationMode: String, Sendable, CaseIterable {
    /// No `/oauth2/par`: the metadata names no endpoint, and authorization requests come whole
    /// in the browser's address. The default, so clients that predate PAR see the server unchanged.
    case off
    /// `/oauth2/par` takes requests and the metadata names it; a request sent whole in the
    /// browser's address is still taken.
    case supported
    /// As ``supported``, and the authorization endpoint takes only a `request_uri` it issued
    /// (`require_pushed_authorization_requests` in the metadata): anything else is refused with
    /// `invalid_request`, as FAPI 2.0 requires.
    case required
}

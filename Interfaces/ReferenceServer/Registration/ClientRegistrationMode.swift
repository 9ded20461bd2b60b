/// Whether the reference server takes dynamic client registrations (RFC 7591) at
/// `/oauth2/register`.
package enum ClientRegistrationMode: String, Sendable, CaseIterable {
    /// `POST /oauth2/register` registers public native clients (no secret, loopback redirect
    /// URIs) up to ``ReferenceServerConfiguration/registrationLimit``, and both metadata documents
    /// name it as `registration_endpoint`. The default, so a client given only the API's address
    /// can sign in.
    case open
    /// No `/oauth2/register` (`404`) and no `registration_endpoint`: only the built-in clients.
    case off
}

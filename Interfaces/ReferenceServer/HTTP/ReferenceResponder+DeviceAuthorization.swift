import Foundation
import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `POST /oauth2/device_authorization` (RFC 8628 §3.1, §3.2): a device code to poll the
    /// token endpoint with, and the user code a person approves at `/device`. The public client
    /// sends no `client_id`; the standard client authenticates as at `/oauth2/token`.
    func deviceAuthorization(_ request: Request) async throws -> Response {
        do {
            let form = try await deviceAuthorizationForm(request)
            if let repeated = Set(form.pairs.map(\.name)).sorted().first(where: { $0 != "resource" && form.count(of: $0) > 1 }) {
                throw TokenEndpointError.invalidRequest("the parameter \(repeated) must not be repeated")
            }
            let clientID = try await authenticatedClient(request, form: form)
            try await requireGrant(TokenEndpointError.deviceCodeGrantType, for: clientID)
            let scope = try Self.scope(form["scope"])
            let grant = await store.startDeviceAuthorization(clientID: clientID, scope: scope,
                                                             resource: try await requestedResource(form))
            let origin = await store.origin
            let userCode = UserCode.display(grant.userCode)
            let body = DeviceAuthorizationBody(
                deviceCode: grant.deviceCode,
                userCode: userCode,
                verificationURI: origin + "/device",
                verificationURIComplete: origin + "/device?user_code=" + userCode,
                expiresIn: grant.expiresIn,
                interval: grant.interval)
            return try Responses.json(body, headers: Self.noStore)
        } catch let error as TokenEndpointError {
            var response = Responses.tokenError(error)
            if error.code == "invalid_client" {
                response.headers[.wwwAuthenticate] = #"Basic realm="rider-reference""#
            }
            return response
        }
    }
}

extension ReferenceResponder {
    /// The form, or no fields for a body-less `POST` (the public client without a scope has
    /// nothing to send, and `curl -X POST` sends no `Content-Type` then).
    private func deviceAuthorizationForm(_ request: Request) async throws -> FormFields {
        guard mediaType(of: request) == nil else { return try await tokenForm(request) }
        let body: Data
        do {
            body = try await self.body(of: request)
        } catch let problem as APIProblem {
            throw TokenEndpointError.invalidRequest(problem.detail)
        }
        guard body.isEmpty, let empty = FormFields(""[...]) else {
            throw TokenEndpointError.invalidRequest("the body must be sent as \(Self.formMediaType)")
        }
        return empty
    }
}

/// RFC 8628 §3.2's device authorization response.
struct DeviceAuthorizationBody: Encodable, Sendable {
    let deviceCode: String
    let userCode: String
    let verificationURI: String
    let verificationURIComplete: String
    let expiresIn: Int
    let interval: Int

    enum CodingKeys: String, CodingKey {
        case interval
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
    }
}

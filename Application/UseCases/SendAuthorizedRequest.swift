import Foundation
import RiderDomain

/// Sends one request of the caller's own to the server the session belongs to, authorized as the
/// library's own requests are (renewed, DPoP-proven, stepped up, signed in again as configured),
/// and hands back the whole answer, whatever its status — the scriptable way to use a session
/// without handing its token to another program (`rider request`, as `gh api`).
///
/// The address must be on the API's origin, the one origin the session's tokens are sent to:
/// a path is taken under the API's base URL, an absolute URL elsewhere is refused before
/// anything is sent.
package struct SendAuthorizedRequest: Sendable {
    let api: APIClient
    let configuration: APIConfiguration

    /// - Parameters:
    ///   - api: sends through the authorized pipeline.
    ///   - configuration: the API, whose origin the address must be on.
    package init(api: APIClient, configuration: APIConfiguration) {
        self.api = api
        self.configuration = configuration
    }

    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - address: an absolute http(s) URL on the API's origin, or a path under its base URL.
    ///   - body: the body and its content type, if any.
    ///   - headers: further headers; an `Authorization` or `DPoP` header is refused (the session's
    ///     are the only ones sent).
    /// - Returns: the answer, any status.
    /// - Throws: `RiderError.invalidInput(_:)` for an address elsewhere, a malformed one or a
    ///   header the session sets; what the pipeline throws (`notSignedIn`, `sessionExpired`, …).
    package func callAsFunction(_ method: HTTPMethod, _ address: String, body: (Data, contentType: String)? = nil,
                                headers: [(String, String)] = []) async throws -> HTTPResponse {
        let url = try target(of: address)
        var extra = HTTPHeaders()
        for (name, value) in headers {
            guard !["authorization", "dpop", "cookie"].contains(name.lowercased()) else {
                throw RiderError.invalidInput([FieldProblem(field: "header", message: "\(name) is the session's to set")])
            }
            extra[name] = value
        }
        var endpoint = Endpoint<HTTPResponse>(
            method: method, path: url.absoluteString, headers: extra,
            body: body.map { RequestBody(contentType: $0.contentType, data: $0.0) }, authorization: .bearer,
            decode: { $0 })
        // Every answer is the caller's to read; the error statuses too.
        endpoint.alsoDecodes = Set(300..<600)
        return try await api.send(endpoint)
    }

    /// `address` as an absolute URL on the API's origin.
    private func target(of address: String) throws -> URL {
        let refusal = { (message: String) in RiderError.invalidInput([FieldProblem(field: "url", message: message)]) }
        if address.hasPrefix("/") { return try configuration.url(for: address) }
        guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host != nil else {
            throw refusal("must be a path such as /auth/me or an absolute http(s) URL on \(configuration.origin)")
        }
        guard APIConfiguration.origin(of: url) == configuration.origin else {
            throw refusal("is not on \(configuration.origin), the one server the session's tokens are sent to")
        }
        guard url.user == nil, url.password == nil, url.fragment == nil else {
            throw refusal("must not carry a user name, password or fragment")
        }
        return url
    }
}

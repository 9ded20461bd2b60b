import Foundation
import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `GET /_test/stats`: the store's counters, for tests that run the server in another process.
    func testStats() async throws -> Response {
        try Responses.json(await store.stats(), headers: Self.noStore)
    }

    /// `POST /_test/expire-access-tokens`: ``ReferenceStore/expireAccessTokens()`` over HTTP.
    func testExpireAccessTokens() async -> Response {
        await store.expireAccessTokens()
        return Response(status: .noContent)
    }

    /// `POST /_test/rotate-signing-key`: a new id_token signing key; the key set keeps the
    /// previous one, so clients holding the old set meet an unknown `kid`.
    func testRotateSigningKey() async -> Response {
        await idTokens.rotate()
        return Response(status: .noContent)
    }

    /// `POST /_test/spoil-next-id-token?fault=signature|audience|nonce|expired|issuer`: the next
    /// id_token comes out wrong in that one way, for clients' refusal tests.
    func testSpoilNextIDToken(_ request: Request) async throws -> Response {
        guard let name = request.uri.queryParameters["fault"].map(String.init),
              let fault = IDTokenSigner.Fault(rawValue: name) else {
            throw APIProblem.badRequest(detail: "fault must be one of "
                + IDTokenSigner.Fault.allCases.map(\.rawValue).joined(separator: ", ") + ".")
        }
        await idTokens.spoilNext(fault)
        return Response(status: .noContent)
    }

    /// `GET|POST /_test/redirect?to=URL&status=307`: redirects anywhere, to test that clients
    /// keep credentials on same-origin redirects and drop them on cross-origin ones.
    func testRedirect(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        guard let target = query["to"].map(String.init), !target.isEmpty else {
            throw APIProblem.badRequest(detail: "The redirect target `to` is missing.",
                                        errors: [FieldError(field: "to", message: "is required")])
        }
        let code = query["status"].flatMap { Int(String($0)) } ?? 307
        guard [301, 302, 303, 307, 308].contains(code) else {
            throw APIProblem.badRequest(detail: "status must be a redirect status.",
                                        errors: [FieldError(field: "status", message: "must be 301, 302, 303, 307 or 308")])
        }
        return Response(status: HTTPResponse.Status(code: code),
                        headers: [.location: target, .contentLength: "0"])
    }

    /// `GET|POST /_test/echo-headers`: the names of the headers this request arrived with (lower
    /// case, sorted) and its method — names only, so a token never travels back in a body.
    func testEchoHeaders(_ request: Request) throws -> Response {
        let names = Set(request.headers.map { $0.name.canonicalName.lowercased() }).sorted()
        return try Responses.json(EchoedHeaders(method: request.method.rawValue, headers: names), headers: Self.noStore)
    }
}

/// What `/_test/echo-headers` answers.
package struct EchoedHeaders: Codable, Sendable {
    package let method: String
    package let headers: [String]
}

import Foundation
import RiderDomain

extension RecordedExchange {
    /// The exchange as it may be written down: every secret of ``SecretRedaction`` — credentials
    /// headers, cookies, token, password and client-secret fields of JSON bodies, form bodies and
    /// the query — replaced by its placeholder from `placeholders`.
    /// - Parameters:
    ///   - outcome: the response, or the transport's failure.
    ///   - placeholders: the recording's book, extended with the tokens seen for the first time.
    init(request: HTTPRequest, outcome: Result<HTTPResponse, RecordedExchange.Failure>, sentAt: Date,
         receivedAt: Date, placeholders: inout TokenPlaceholders) {
        let (requestHeaders, requestBody) = Self.redacting(request.headers, request.body, placeholders: &placeholders)
        self.init(
            sentAt: sentAt, receivedAt: receivedAt,
            request: Request(method: request.method.rawValue, path: request.url.path,
                             query: Self.redactingQuery(of: request.url, placeholders: &placeholders),
                             headers: Self.spell(requestHeaders), body: requestBody.text,
                             bodyBase64: requestBody.base64),
            response: nil, failure: nil)
        switch outcome {
        case .success(let response):
            let (headers, body) = Self.redacting(response.headers, response.body, placeholders: &placeholders)
            self.response = Response(status: response.status, headers: Self.spell(headers), body: body.text,
                                     bodyBase64: body.base64)
        case .failure(let failure):
            self.failure = failure
        }
    }

    /// A message's headers and body, redacted, its `Content-Length` following the body's new size.
    private static func redacting(_ headers: HTTPHeaders, _ body: Data?, placeholders: inout TokenPlaceholders)
        -> (headers: HTTPHeaders, body: (text: String?, base64: String?)) {
        let redactedBody = redacting(body, contentType: headers["Content-Type"], placeholders: &placeholders)
        var redactedHeaders = redacting(headers, placeholders: &placeholders)
        if redactedBody != body {
            let length = String(redactedBody?.count ?? 0)
            redactedHeaders = HTTPHeaders(redactedHeaders.map { field in
                (field.name, field.name.caseInsensitiveCompare("Content-Length") == .orderedSame ? length : field.value)
            })
        }
        return (redactedHeaders, spell(redactedBody))
    }

    /// `Authorization: Bearer <token>` keeps its scheme and gets the token's placeholder, so a
    /// reader sees which token each request used; any other credentials are only named.
    private static func redacting(_ headers: HTTPHeaders, placeholders: inout TokenPlaceholders) -> HTTPHeaders {
        HTTPHeaders(headers.map { field -> (String, String) in
            guard SecretRedaction.isSecretHeader(field.name) else { return (field.name, field.value) }
            let parts = field.value.split(separator: " ", maxSplits: 1)
            let name = field.name.lowercased()
            guard name == "authorization" || name == "proxy-authorization", parts.count == 2 else {
                return (field.name, "redacted")
            }
            guard parts[0].caseInsensitiveCompare("Bearer") == .orderedSame else {
                return (field.name, "\(parts[0]) redacted")
            }
            return (field.name, "\(parts[0]) " + placeholders.placeholder(forToken: String(parts[1]), kind: "access-token"))
        })
    }

    /// A JSON or form body with its secrets replaced; the original bytes when it holds none, so
    /// a replay answers exactly what the server sent. Other bodies are kept as they are: nothing
    /// in them can be told to be a secret, and RiderKit sends or reads no secret in them.
    private static func redacting(_ body: Data?, contentType: String?,
                                  placeholders: inout TokenPlaceholders) -> Data? {
        guard let body, !body.isEmpty else { return body }
        func replace(_ field: String, _ value: String) -> String { placeholders.placeholder(for: value, field: field) }
        if let json = SecretRedaction.redactingJSON(body, replacement: replace) {
            return json.redacted > 0 ? json.data : body
        }
        guard SecretRedaction.isForm(contentType), let form = String(data: body, encoding: .utf8) else { return body }
        let fields = SecretRedaction.redactingFields(FormEncoding.decode(form), replacement: replace)
        return fields.redacted > 0 ? Data(FormEncoding.encode(fields.pairs).utf8) : body
    }

    /// The query as sent, or with its secret parameters replaced when it has any.
    private static func redactingQuery(of url: URL, placeholders: inout TokenPlaceholders) -> String? {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery else {
            return nil
        }
        let fields = SecretRedaction.redactingFields(FormEncoding.decode(query)) {
            placeholders.placeholder(for: $1, field: $0)
        }
        return fields.redacted > 0 ? FormEncoding.encode(fields.pairs, spaceAsPlus: false) : query
    }
}

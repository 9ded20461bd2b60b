/// The token endpoint's error body (RFC 6749 §5.2).
struct TokenErrorBody: Encodable, Sendable {
    let error: String
    let errorDescription: String

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}

/// RFC 9457 problem details, the body of every error outside `/auth/token`.
struct ProblemBody: Encodable, Sendable {
    let type: String
    let title: String
    let status: Int
    let detail: String
    let errors: [FieldError]?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(title, forKey: .title)
        try container.encode(status, forKey: .status)
        try container.encode(detail, forKey: .detail)
        try container.encodeIfPresent(errors, forKey: .errors)
    }

    enum CodingKeys: String, CodingKey {
        case type, title, status, detail, errors
    }
}

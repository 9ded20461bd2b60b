/// Validated `page` and `limit` query parameters.
struct Pagination: Sendable, Equatable {
    static let limits = 1...100
    static let defaultLimit = 20

    let page: Int
    let limit: Int

    /// Reads `page` (≥ 1, default 1) and `limit` (1…100, default 20).
    /// - Throws: A `400` problem naming each bad parameter.
    init(query: FormFields) throws(APIProblem) {
        var errors: [FieldError] = []
        let page = Self.integer(query, "page", default: 1, range: 1...Int.max, message: "must be a whole number of at least 1", errors: &errors)
        let limit = Self.integer(query, "limit", default: Self.defaultLimit, range: Self.limits, message: "must be a whole number from 1 to 100", errors: &errors)
        guard errors.isEmpty else {
            throw .badRequest(detail: "The paging parameters are invalid.", errors: errors)
        }
        self.page = page
        self.limit = limit
    }

    /// The positions of this page within `count` items; empty past the end.
    func bounds(in count: Int) -> Range<Int> {
        let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
        let start = overflow ? count : min(count, offset)
        return start..<min(count, start + limit)
    }

    private static func integer(
        _ query: FormFields,
        _ name: String,
        default value: Int,
        range: ClosedRange<Int>,
        message: String,
        errors: inout [FieldError]
    ) -> Int {
        guard let text = query[name] else { return value }
        guard let number = Int(text), range.contains(number) else {
            errors.append(FieldError(field: name, message: message))
            return value
        }
        return number
    }
}

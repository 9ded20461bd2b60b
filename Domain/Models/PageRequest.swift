import Foundation

/// Which page of a listing to fetch. Pages start at 1; the server caps `limit` at 100.
public struct PageRequest: Hashable, Sendable {
    public static let maximumLimit = 100

    public var page: Int
    public var limit: Int

    /// - Throws: `RiderError.invalidInput(_:)` when `page` < 1 or `limit` is outside 1…100.
    public init(page: Int = 1, limit: Int = 20) throws {
        var problems: [FieldProblem] = []
        if page < 1 { problems.append(FieldProblem(field: "page", message: "must be 1 or more")) }
        if !(1...Self.maximumLimit).contains(limit) {
            problems.append(FieldProblem(field: "limit", message: "must be between 1 and \(Self.maximumLimit)"))
        }
        guard problems.isEmpty else { throw RiderError.invalidInput(problems) }
        self.page = page
        self.limit = limit
    }
}

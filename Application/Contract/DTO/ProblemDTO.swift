import Foundation
import RiderDomain

/// RFC 9457 problem details, as the API sends for every error but token errors.
struct ProblemDTO: Decodable, Sendable {
    struct FieldErrorDTO: Decodable, Sendable {
        var field: String
        var message: String
    }

    var type: String?
    var title: String?
    var status: Int?
    var detail: String?
    var errors: [FieldErrorDTO]?

    var fieldProblems: [FieldProblem] {
        (errors ?? []).map { FieldProblem(field: $0.field, message: $0.message) }
    }

    /// The most specific human text the server gave.
    var summary: String? { detail ?? title }
}

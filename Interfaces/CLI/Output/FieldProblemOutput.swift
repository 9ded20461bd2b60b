import RiderKit

/// One rejected field in a JSON error.
struct FieldProblemOutput: Encodable, Sendable {
    let field: String
    let message: String

    init(_ problem: FieldProblem) {
        field = problem.field
        message = problem.message
    }
}

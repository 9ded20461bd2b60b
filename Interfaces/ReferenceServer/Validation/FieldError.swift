/// One entry of a problem's `errors` array: which field, and what is wrong with it.
struct FieldError: Sendable, Hashable, Encodable {
    let field: String
    let message: String
}

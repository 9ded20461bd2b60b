/// What `rider cache clear` reports.
struct CacheClearOutput: Encodable, Sendable {
    let removed: Int
    let location: String
    /// The account whose cache was emptied.
    @Nullable var account: String?

    var line: String {
        let whose = account.map { " of \($0)" } ?? ""
        return "Removed \(removed) cached \(removed == 1 ? "user" : "users")\(whose) from \(location). The session is kept."
    }
}

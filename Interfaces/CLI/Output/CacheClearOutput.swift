/// What `rider cache clear` reports.
struct CacheClearOutput: Encodable, Sendable {
    let removed: Int
    let location: String

    var line: String {
        "Removed \(removed) cached \(removed == 1 ? "user" : "users") from \(location). The session is kept."
    }
}

import RiderKit

/// What `rider account delete` reports.
struct AccountDeletedOutput: Encodable, Sendable {
    let userID: String
    let deleted: Bool
    let alreadyGone: Bool

    init(_ outcome: DeleteAccount.Outcome) {
        userID = outcome.userID.rawValue
        deleted = true
        alreadyGone = !outcome.deletedNow
    }

    var line: String {
        let account = userID.terminalSafe
        return (alreadyGone ? "The account \(account) was already deleted on the server" : "Deleted the account \(account)")
            + "; its session and cached data are gone from this machine."
    }
}

/// A rider's preferences as the store keeps them.
///
/// The reference server plays a *newer* server here: besides what the RiderKit client models it
/// knows `notifications.weekly_digest` and `units`, so tests can check that an older client
/// sends those back untouched.
struct StoredPreferences: Sendable, Equatable {
    static let profileVisibilities = ["everyone", "members", "nobody"]
    /// The `visibility.profile` that hides a rider from everyone else.
    static let hiddenProfile = "nobody"
    static let unitSystems = ["metric", "imperial"]

    var rideInvitations = true
    var messages = true
    var newsletter = false
    var weeklyDigest = false
    var profileVisibility = "members"
    var showBaseLocation = false
    var units = "metric"
}

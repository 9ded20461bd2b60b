import RiderKit

/// The part of the Ride Buddy app that talks to the rider community: sign in, find riding
/// buddies, set a motto. It only sees `RiderKit`, so its tests can hand it `RiderKit.testing()`.
public struct BuddyFinder: Sendable {
    private let rider: RiderKit

    /// - Parameter rider: `RiderKit.live(configuration:)` in the app, `RiderKit.testing()` in tests.
    public init(rider: RiderKit) {
        self.rider = rider
    }

    /// Signs in and returns the greeting the app shows.
    /// - Throws: `RiderError` (`.invalidCredentials`, `.serverUnreachable`, …); show it with ``message(for:)``.
    public func signIn(email: String, password: String) async throws -> String {
        _ = try await rider.login(Credentials(email: email, password: password))
        let me = try await rider.currentUser()
        return "Welcome back, \(me.value.displayName)!"
    }

    /// Riders whose name or email matches `query`, as "Name <email>", without the signed-in rider.
    /// - Throws: `RiderError.notSignedIn`, network errors.
    public func buddies(matching query: String) async throws -> [String] {
        let me = try await rider.sessions.currentSession()?.userID
        let page = try await rider.searchUsers(query, page: PageRequest(limit: 10))
        return page.users.filter { $0.id != me }.map { "\($0.displayName) <\($0.email)>" }
    }

    /// Sets the one line under the rider's name, and returns it as the server saved it.
    /// - Throws: `RiderError.conflict` when the profile changed elsewhere, network errors.
    public func setMotto(_ motto: String) async throws -> String? {
        try await rider.profile.update(RiderPatch(description: .set(motto))).description
    }

    /// What the app says when something failed.
    /// - Parameter error: an error thrown by this type.
    /// - Returns: a sentence for the rider.
    public static func message(for error: any Error) -> String {
        switch (error as? RiderError)?.code {
        case .invalidCredentials?: "That email and password do not match."
        case .serverUnreachable?, .timedOut?: "You seem to be offline; try again later."
        default: "Something went wrong: \(error.localizedDescription)"
        }
    }
}

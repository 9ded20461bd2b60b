import Foundation

/// Remembers users seen on the server, for offline use and quick lookups.
///
/// Holds only what the server shows other members; never tokens or passwords.
public protocol UserCache: Sendable {
    /// - Returns: the cached user with the time it was stored, or `nil`.
    /// - Throws: ``RiderError/storage(_:)``.
    func user(id: UserID) async throws -> Cached<User>?

    /// Inserts or replaces users, stamping them with `date`.
    /// - Throws: ``RiderError/storage(_:)``.
    func store(_ users: [User], at date: Date) async throws

    /// Searches cached users by name or email (case- and diacritic-insensitive prefixes).
    /// - Throws: ``RiderError/storage(_:)``.
    func search(_ query: String, page: PageRequest) async throws -> UserPage

    /// Forgets every cached user.
    /// - Throws: ``RiderError/storage(_:)``.
    func removeAll() async throws
}

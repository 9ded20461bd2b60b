import Foundation
import Logging
import RiderDomain
import RiderInfrastructure

/// A temporary folder holding one cache file, with helpers to open caches on it.
struct CacheFolder {
    let directory: TemporaryDirectory
    /// `<temp>/rider/users.sqlite`, so opening the cache also creates a folder.
    let file: URL

    init() throws {
        directory = try TemporaryDirectory()
        file = directory.url.appendingPathComponent("rider", isDirectory: true).appendingPathComponent("users.sqlite")
    }

    /// A cache on the file; each call is a separate connection pool, like another process.
    func cache(maximumEntries: Int = 1_000, logger: Logger? = nil) -> SQLiteUserCache {
        SQLiteUserCache(configuration: .init(file: file, maximumEntries: maximumEntries), logger: logger)
    }

    /// The names of the files next to the cache file.
    func siblings() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).sorted()
    }

    func remove() { directory.remove() }
}

enum CacheSamples {
    static let epoch = Date(timeIntervalSince1970: 1_735_787_045)

    static func user(_ number: Int, _ displayName: String, email: String? = nil) -> User {
        let id = "u_" + String(repeating: "0", count: max(0, 6 - String(number).count)) + String(number)
        return User(id: UserID(id), email: email ?? "rider\(number)@example.com", displayName: displayName,
                    role: .user, riderType: number.isMultiple(of: 2) ? .mentor : .learner,
                    createdAt: epoch.addingTimeInterval(-86_400))
    }

    static let riders: [User] = [
        user(1, "José García", email: "jose.garcia@example.com"),
        user(2, "Jonas Berg", email: "jonas@example.com"),
        user(3, "Ada Lovelace", email: "ada@example.com"),
        user(4, "Zoë Jordan", email: "zoe@example.org"),
        user(5, "Chloé Dupont", email: "johanna.dupont@example.com"),
    ]
}

import Foundation
import RiderDomain

/// Users for the cache tests: accented names, emails with several words, a fixed epoch.
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

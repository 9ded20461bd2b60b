import Foundation

/// One account with its rider profile, as the store keeps it.
///
/// User and rider are views of the same record, so a PATCH of `display_name` or `rider_type`
/// shows in `/users/{id}` at once.
struct ReferenceUser: Sendable {
    /// Position in the store's array, which is also the number in the id.
    let index: Int
    let email: String
    /// Test server: passwords live in memory as given, compared in constant time.
    let password: String
    var displayName: String
    let role: UserRole
    var riderType: RiderType
    let createdAt: Date
    var description: String?
    var avatarURL: String?
    var sports: [String]
    var updatedAt: Date
    /// Bumped by every successful PATCH; part of the ETag.
    var version: Int
    /// Folded words of the display name and the email, computed once so search stays a scan.
    var searchWords: [String]
    /// Folded display name, the second sort key of search results.
    var foldedDisplayName: String

    var id: String { Self.id(forIndex: index) }

    /// Strong entity tag of the rider profile.
    var entityTag: String { "\"\(id)-\(version)\"" }

    /// Strong entity tag of the `/users/{id}` representation; it changes with the profile
    /// version, since a PATCH may change the display name or rider type.
    var userEntityTag: String { "\"user-\(id)-\(version)\"" }

    static func id(forIndex index: Int) -> String {
        let digits = String(index)
        return "u_" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// The index encoded in `id`, if `id` has the contract's form.
    static func index(forID id: String) -> Int? {
        guard id.hasPrefix("u_") else { return nil }
        let digits = id.dropFirst(2)
        guard digits.count >= 6, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(digits)
    }

    init(
        index: Int,
        email: String,
        password: String,
        displayName: String,
        role: UserRole,
        riderType: RiderType,
        createdAt: Date,
        description: String? = nil,
        avatarURL: String? = nil,
        sports: [String] = [],
        searchWords: [String]? = nil,
        foldedDisplayName: String? = nil
    ) {
        self.index = index
        self.email = email
        self.password = password
        self.displayName = displayName
        self.role = role
        self.riderType = riderType
        self.createdAt = createdAt
        self.description = description
        self.avatarURL = avatarURL
        self.sports = sports
        self.updatedAt = createdAt
        self.version = 1
        self.searchWords = searchWords ?? SearchText.words(displayName: displayName, email: email)
        self.foldedDisplayName = foldedDisplayName ?? SearchText.fold(displayName)
    }

    /// Changes the display name and keeps the search keys in step.
    mutating func rename(to name: String) {
        displayName = name
        searchWords = SearchText.words(displayName: name, email: email)
        foldedDisplayName = SearchText.fold(name)
    }
}

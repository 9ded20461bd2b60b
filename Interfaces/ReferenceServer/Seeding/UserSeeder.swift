import Foundation

/// Generates the store's users from a seed, identically on every run and platform.
///
/// `u_000000` is the demo account. Seeded user `u_000042` has the password
/// `password-u_000042`, an email like `jose.garcia42@example.com`, is a mentor when its number is
/// odd and an admin when its number is 7 more than a multiple of 50.
struct UserSeeder {
    /// 2024-01-01T00:00:00Z: seeded accounts are created an hour apart from here.
    static let epoch = Date(timeIntervalSince1970: 1_704_067_200)

    let configuration: ReferenceServerConfiguration

    func users() -> [ReferenceUser] {
        var random = SplitMix64(seed: configuration.seed)
        let firstNames = SeedNames.first.map(FoldedName.init)
        let lastNames = SeedNames.last.map(FoldedName.init)
        var takenEmails: Set<String> = [configuration.demoEmail.lowercased()]
        var users = [demoUser()]
        users.reserveCapacity(configuration.seedUsers + 1)
        for index in stride(from: 1, through: configuration.seedUsers, by: 1) {
            let first = random.pick(firstNames)
            let last = random.pick(lastNames)
            var local = "\(first.slug).\(last.slug)\(index)"
            while !takenEmails.insert("\(local)@example.com").inserted { local += "x" }
            let email = "\(local)@example.com"
            let id = ReferenceUser.id(forIndex: index)
            let hasDescription = random.below(10) < 6
            let description = random.pick(SeedNames.descriptions)
            let sports = (0..<random.below(4)).map { _ in random.pick(SeedNames.sports) }
            let hasAvatar = random.below(4) == 0
            let displayName = "\(first.name) \(last.name)"
            users.append(
                ReferenceUser(
                    index: index,
                    email: email,
                    password: "password-\(id)",
                    displayName: displayName,
                    role: index % 50 == 7 ? .admin : .user,
                    riderType: index % 2 == 1 ? .mentor : .learner,
                    createdAt: Self.epoch.addingTimeInterval(TimeInterval(index * 3600 + random.below(3600))),
                    description: hasDescription ? description : nil,
                    avatarURL: hasAvatar ? "https://avatars.example.com/\(id).png" : nil,
                    sports: Array(Set(sports)).sorted(),
                    searchWords: SearchText.words(foldedDisplayName: "\(first.folded) \(last.folded)", email: email),
                    foldedDisplayName: "\(first.folded) \(last.folded)"
                )
            )
        }
        return users
    }

    private func demoUser() -> ReferenceUser {
        ReferenceUser(
            index: 0,
            email: configuration.demoEmail,
            password: configuration.demoPassword,
            displayName: configuration.demoDisplayName,
            role: .user,
            riderType: .learner,
            createdAt: Self.epoch,
            description: "The demo account of the RiderKit reference server.",
            sports: ["gravel"]
        )
    }
}

/// A name with its folded form and email slug, computed once per list entry rather than once
/// per user: seeding 100,000 users would otherwise spend most of its time folding.
private struct FoldedName {
    let name: String
    let folded: String
    let slug: String

    init(_ name: String) {
        self.name = name
        self.folded = SearchText.fold(name)
        self.slug = SearchText.asciiSlug(name)
    }
}

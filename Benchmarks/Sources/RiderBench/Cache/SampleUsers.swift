import Foundation
import RiderKit

/// Deterministic users with accented and plain names, like the reference server's seed.
enum SampleUsers {
    static let firstNames = ["José", "Jonas", "Ana", "Maria", "Élodie", "Søren", "Chloé", "Liam", "Noah", "Emma",
                             "Olivia", "Mateo", "Lucía", "João", "Zoë", "Björn", "Ines", "Sara", "David", "Léa"]
    static let lastNames = ["García", "Berg", "Dupont", "Müller", "Brontë", "Silva", "Rossi", "Novák", "Kowalski",
                            "Dubois", "Çelik", "Jensen", "Martín", "Smith", "Nakamura", "Ólafsson"]

    static func make(_ count: Int) -> [User] {
        var state: UInt64 = 42
        func next() -> Int {
            // SplitMix64: stable across platforms and runs.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        return (1...count).map { index in
            let first = firstNames[next() % firstNames.count]
            let last = lastNames[next() % lastNames.count]
            let folded = "\(first).\(last)".folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
            return User(id: UserID(String(format: "u_%06d", index)), email: "\(folded)\(index)@example.com",
                        displayName: "\(first) \(last)", role: .user, riderType: index.isMultiple(of: 2) ? .mentor : .learner,
                        createdAt: created.addingTimeInterval(Double(index)))
        }
    }

    /// Narrower searches: three letters of a first name and of a last name ("jos gar").
    static func twoWordQueries(_ count: Int) -> [String] {
        (0..<count).map { index in
            let first = firstNames[(index * 7) % firstNames.count].lowercased().prefix(3)
            let last = lastNames[(index * 11) % lastNames.count].lowercased().prefix(3)
            return "\(first) \(last)"
        }
    }

    /// Prefixes people type: two or three letters of a first or last name.
    static func queries(_ count: Int) -> [String] {
        let words = (firstNames + lastNames).map { $0.lowercased() }
        return (0..<count).map { index in
            let word = words[(index * 7) % words.count]
            return String(word.prefix(2 + index % 2))
        }
    }
}

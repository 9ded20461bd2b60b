import Foundation
import RiderDomain

/// How cached users are matched: every query word must start some word of the display name
/// or email, ignoring case and diacritics ("jose" finds "José").
enum UserSearchText {
    static func words(in text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split { !$0.isLetter && !$0.isNumber }
            .map(String.init)
    }

    static func matches(_ terms: [String], user: User) -> Bool {
        matches(terms, words: words(in: user.displayName) + words(in: user.email))
    }

    /// Whether every term starts some word of `text` alone (the display name, say).
    static func matches(_ terms: [String], in text: String) -> Bool {
        matches(terms, words: words(in: text))
    }

    private static func matches(_ terms: [String], words haystack: [String]) -> Bool {
        guard !terms.isEmpty else { return false }
        return terms.allSatisfy { term in haystack.contains { $0.hasPrefix(term) } }
    }
}

import Foundation

/// Folding and word splitting shared by seeding, registration, PATCH and search, so that the
/// words stored for a user and the terms of a query are compared in the same form.
enum SearchText {
    /// Letters that are distinct in Unicode, so diacritic folding keeps them, but that people
    /// type without their stroke or ligature.
    private static let extraFolds: [Character: String] = [
        "ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
    ]

    /// Case- and diacritic-insensitive form of `text`: "José" → "jose", "Łukasz" → "lukasz".
    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        guard !folded.utf8.allSatisfy({ $0 < 0x80 }) else { return folded }
        var result = ""
        for character in folded {
            if let replacement = extraFolds[character] {
                result += replacement
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `fold(text)` reduced to `a–z` and `0–9`, for generated email addresses.
    static func asciiSlug(_ text: String) -> String {
        String(fold(text).unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil) })
    }

    /// The words a query term may be a prefix of: the display name split on white space and
    /// on anything not a letter or digit ("Jean-Luc" gives "jean-luc", "jean" and "luc"),
    /// and the email split on anything not a letter or digit.
    static func words(displayName: String, email: String) -> [String] {
        words(foldedDisplayName: fold(displayName), email: email)
    }

    /// ``words(displayName:email:)`` for a display name that is already folded.
    static func words(foldedDisplayName name: String, email: String) -> [String] {
        var words = name.split(whereSeparator: \.isWhitespace).map(String.init)
        words += alphanumericRuns(of: name)
        words += alphanumericRuns(of: email.lowercased())
        var seen = Set<String>()
        return words.filter { seen.insert($0).inserted }
    }

    /// The folded, white-space separated terms of a query.
    static func terms(of query: String) -> [String] {
        fold(query).split(whereSeparator: \.isWhitespace).map(String.init)
    }

    private static func alphanumericRuns(of text: String) -> [String] {
        text.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }
}

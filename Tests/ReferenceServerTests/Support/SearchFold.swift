import Foundation

/// The folding the contract's search uses, as documented in docs/openapi.yaml: Foundation's
/// case- and diacritic-insensitive folding, plus letters it keeps (ł, ø, æ, œ, đ, ð, þ, ı).
enum SearchFold {
    static func fold(_ text: String) -> String {
        let extra: [Character: String] = ["ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ı": "i"]
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return folded.reduce(into: "") { result, character in
            if let replacement = extra[character] { result += replacement } else { result.append(character) }
        }
    }
}

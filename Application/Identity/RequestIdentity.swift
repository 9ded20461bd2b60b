import Foundation

/// How RiderKit introduces itself on every request: a `User-Agent` naming RiderKit, its version
/// and the program that embeds it, and an `Accept-Language` with the person's languages.
public struct RequestIdentity: Hashable, Sendable {
    /// RiderKit's version, in every `User-Agent`.
    public static let libraryVersion = "0.9.0"
    /// At most this many languages go into `Accept-Language`.
    package static let maximumLanguages = 6

    /// The embedding program as an RFC 9110 product (`rider/0.9.0`, `MyApp/2.1`), or `nil`.
    public var program: String?
    /// Languages the person reads, most preferred first, as BCP 47 tags (`de-CH`, `en`).
    public var languages: [String]

    /// - Parameters:
    ///   - program: the embedding program; characters a header cannot carry are dropped when sent.
    ///   - languages: BCP 47 tags; malformed ones are left out when sent.
    public init(program: String? = nil, languages: [String] = []) {
        self.program = program
        self.languages = languages
    }

    /// `rider/0.9.0 RiderKit/0.9.0` (RFC 9110 §10.1.5: most significant product first).
    package var userAgent: String {
        let product = program.map(Self.headerSafe).flatMap { $0.isEmpty ? nil : $0 }
        return [product, "RiderKit/\(Self.libraryVersion)"].compactMap { $0 }.joined(separator: " ")
    }

    /// `de-CH, de;q=0.9, en;q=0.8`, or `nil` when no language is known.
    package var acceptLanguage: String? {
        var seen = Set<String>()
        let tags = languages.filter { Self.isLanguageTag($0) && seen.insert($0.lowercased()).inserted }
            .prefix(Self.maximumLanguages)
        guard !tags.isEmpty else { return nil }
        return tags.enumerated().map { index, tag in
            index == 0 ? tag : "\(tag);q=0.\(max(1, 10 - index))"
        }.joined(separator: ", ")
    }

    /// The person's languages from the POSIX environment: the GNU `LANGUAGE` list first, then
    /// the locale of `LC_ALL`, `LC_MESSAGES` or `LANG` (the first set). `C` and `POSIX` name no
    /// language; `de_CH.UTF-8@euro` becomes `de-CH`.
    package static func languages(fromEnvironment environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        var names = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init)
        if let locale { names.append(locale) }
        return names.compactMap(languageTag)
    }

    /// `de_CH.UTF-8@euro` → `de-CH`; `nil` for `C`, `POSIX` or anything malformed.
    private static func languageTag(_ locale: String) -> String? {
        let base = locale.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        let name = base.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
        guard name != "C", name != "POSIX" else { return nil }
        let tag = name.replacingOccurrences(of: "_", with: "-")
        return isLanguageTag(tag) ? tag : nil
    }

    private static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return false
        }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// Visible ASCII and spaces only, so the value can never split or forge a header line.
    private static func headerSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { (0x20...0x7E).contains($0.value) }))
            .trimmingCharacters(in: .whitespaces)
    }
}

import Foundation

/// A parsed `If-Match` (RFC 9110 §13.1.1) or `If-None-Match` (§13.1.2) header.
enum EntityTagCondition: Sendable, Equatable {
    /// `*`: matches any current representation.
    case any
    /// A list of entity tags; weak ones are kept but never match, because If-Match compares strongly.
    case tags([String])

    /// Parses the header value; `nil` when it is not a valid If-Match value.
    init?(header: String) {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" {
            self = .any
            return
        }
        var tags: [String] = []
        var rest = Substring(trimmed)
        while !rest.isEmpty {
            let weak = rest.hasPrefix("W/")
            if weak { rest = rest.dropFirst(2) }
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return nil }
            let tag = String(rest[rest.startIndex...close])
            tags.append(weak ? "W/" + tag : tag)
            rest = rest[rest.index(after: close)...].drop(while: { $0 == " " || $0 == "\t" })
            guard rest.isEmpty || rest.first == "," else { return nil }
            rest = rest.drop(while: { $0 == "," || $0 == " " || $0 == "\t" })
        }
        guard !tags.isEmpty else { return nil }
        self = .tags(tags)
    }

    /// Strong comparison against the current tag.
    func matches(_ current: String) -> Bool {
        switch self {
        case .any: true
        case .tags(let tags): tags.contains(current)
        }
    }

    /// Weak comparison, as `If-None-Match` uses: `W/"x"` and `"x"` match.
    func matchesWeakly(_ current: String) -> Bool {
        switch self {
        case .any: true
        case .tags(let tags): tags.contains { Self.opaque($0) == Self.opaque(current) }
        }
    }

    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }
}

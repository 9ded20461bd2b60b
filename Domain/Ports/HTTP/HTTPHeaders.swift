import Foundation

/// HTTP header fields with case-insensitive names, in the order they were added.
public struct HTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}
    public init(_ fields: [(String, String)]) {
        for (name, value) in fields { add(name, value) }
    }
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value for `name`, or `nil`.
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesMatch($0.name, name) }?.value }
        set {
            remove(name)
            if let newValue { add(name, newValue) }
        }
    }

    /// Appends a field, keeping any with the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { namesMatch($0.name, $1.name) && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            for byte in field.name.utf8 { hasher.combine(Self.folded(byte)) }
            hasher.combine(field.value)
        }
    }

    /// Whether two field names are the same name. Field names are ASCII tokens (RFC 9110
    /// §5.1), so ASCII letters match in either case and any other byte only itself: Foundation's
    /// locale-aware `caseInsensitiveCompare`, used before, was a fifth of RiderKit's own work
    /// per request, the header lookups of every decorator included.
    static func namesMatch(_ first: String, _ second: String) -> Bool {
        first.utf8.count == second.utf8.count
            && zip(first.utf8, second.utf8).allSatisfy { folded($0) == folded($1) }
    }

    private static func folded(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

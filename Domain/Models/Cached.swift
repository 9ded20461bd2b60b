import Foundation

/// A value read through a cache: the value, when it was stored or last confirmed by the
/// server, where this answer came from, and whether it is stale.
///
/// Member lookup reaches through to the value, so `cachedUser.displayName` works.
@dynamicMemberLookup
public struct Cached<Value: Sendable>: Sendable {
    /// The value itself.
    public var value: Value
    /// When the value was downloaded or last confirmed by the server.
    public var storedAt: Date
    /// The server's entity tag for the value, used to revalidate it with `If-None-Match`.
    public var entityTag: EntityTag?
    /// Where this answer came from.
    public var source: DataSource
    /// Whether the value is older than the cache's time to live, or could not be confirmed
    /// because the server was unreachable.
    public var isStale: Bool

    public init(value: Value, storedAt: Date, entityTag: EntityTag? = nil, source: DataSource = .cache,
                isStale: Bool = false) {
        self.value = value
        self.storedAt = storedAt
        self.entityTag = entityTag
        self.source = source
        self.isStale = isStale
    }

    /// How old the value is at `date` (never negative).
    public func age(at date: Date) -> TimeInterval { max(0, date.timeIntervalSince(storedAt)) }

    /// Reads a member of ``value``.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member { value[keyPath: keyPath] }

    /// A copy that says it came from `source`, stale or not.
    package func served(from source: DataSource, isStale: Bool) -> Cached {
        var copy = self
        copy.source = source
        copy.isStale = isStale
        return copy
    }
}

extension Cached: Equatable where Value: Equatable {}
extension Cached: Hashable where Value: Hashable {}

import Foundation

/// A value read from a cache, with the instant it was stored so callers can judge its age.
public struct Cached<Value: Sendable>: Sendable {
    public var value: Value
    public var storedAt: Date

    public init(value: Value, storedAt: Date) {
        self.value = value
        self.storedAt = storedAt
    }

    /// How old the value is at `date` (never negative).
    public func age(at date: Date) -> TimeInterval { max(0, date.timeIntervalSince(storedAt)) }
}

extension Cached: Equatable where Value: Equatable {}
extension Cached: Hashable where Value: Hashable {}

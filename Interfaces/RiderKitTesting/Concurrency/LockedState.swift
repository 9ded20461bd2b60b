import Foundation

/// A value guarded by an `NSLock`.
///
/// Not `Synchronization.Mutex`: on Linux it waits with raw futex calls the thread sanitizer
/// cannot see, so `swift test --sanitize=thread` would report every access as a race.
final class LockedState<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

import Foundation

/// Serialises session refreshes across processes that share one vault.
///
/// Two programs refreshing the same rotating refresh token at once would spend it twice, and the
/// server would then reject one of them as a replay. Holding this lock, the session engine
/// re-reads the vault and uses a session another process just stored instead of refreshing again.
public protocol RefreshLock: Sendable {
    /// Runs `body` while holding the lock.
    /// - Throws: ``RiderError/storage(_:underlying:)`` when the lock cannot be taken in reasonable time, and
    ///   what `body` throws.
    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
}

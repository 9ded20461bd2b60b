import Foundation
import RiderDomain
import RiderKit

/// A ``TokenVault`` that keeps sessions in an `InMemoryTokenVault`, counts what is done to it,
/// and can be told to fail, to test how a program reacts to a broken keyring or disk.
public actor SpyTokenVault: TokenVault {
    private let storage: InMemoryTokenVault
    private var saveFailure: RiderError?
    private var loadFailure: RiderError?
    private var removeFailure: RiderError?
    private var removalHold: (reached: AsyncStream<Void>.Continuation, release: AsyncStream<Void>)?

    /// How many times each operation was called (failed calls included).
    public private(set) var loadCount = 0
    public private(set) var saveCount = 0
    public private(set) var removeCount = 0
    /// Every session successfully saved, in order.
    public private(set) var savedSessions: [Session] = []

    /// - Parameter session: the session stored at the start, if any.
    public init(session: Session? = nil) {
        storage = InMemoryTokenVault(session: session)
    }

    public nonisolated var location: String { "spy vault (memory)" }

    /// The stored session, bypassing the counters and failures (for assertions).
    public var storedSession: Session? {
        get async { try? await storage.loadSession() }
    }

    /// Makes later saves throw `error` (and keep the previous session); `nil` lets them succeed again.
    /// - Parameter error: the error, usually ``RiderError/storage(_:underlying:)``.
    public func failSaves(with error: RiderError? = .storage("the test vault refuses to save")) {
        saveFailure = error
    }

    /// Makes later loads throw `error`; `nil` lets them succeed again.
    /// - Parameter error: the error, usually ``RiderError/storage(_:underlying:)``.
    public func failLoads(with error: RiderError? = .storage("the test vault cannot be read")) {
        loadFailure = error
    }

    /// Makes later removals throw `error`; `nil` lets them succeed again.
    /// - Parameter error: the error, usually ``RiderError/storage(_:underlying:)``.
    public func failRemovals(with error: RiderError? = .storage("the test vault refuses to delete")) {
        removeFailure = error
    }

    /// Makes the next removal stop, before it removes anything, until `release` is called: to
    /// start something at the moment a session is being removed.
    /// - Returns: `reached`, which yields once when the removal has stopped, and `release`.
    package func holdNextRemoval() -> (reached: AsyncStream<Void>, release: @Sendable () -> Void) {
        let (reached, reachedContinuation) = AsyncStream.makeStream(of: Void.self)
        let (released, releaseContinuation) = AsyncStream.makeStream(of: Void.self)
        removalHold = (reachedContinuation, released)
        return (reached, { releaseContinuation.finish() })
    }

    public func loadSession() async throws -> Session? {
        loadCount += 1
        if let loadFailure { throw loadFailure }
        return try await storage.loadSession()
    }

    public func saveSession(_ session: Session) async throws {
        saveCount += 1
        if let saveFailure { throw saveFailure }
        try await storage.saveSession(session)
        savedSessions.append(session)
    }

    public func removeSession() async throws {
        removeCount += 1
        if let hold = removalHold {
            removalHold = nil
            hold.reached.yield()
            // Finishes when released.
            for await _ in hold.release {}
        }
        if let removeFailure { throw removeFailure }
        try await storage.removeSession()
    }
}

import Foundation
import RiderDomain

/// What the world outside the session engine sees of its ``SessionMachine``: the session
/// requests may use, readable without entering the actor, and every change of the published
/// ``SessionState`` for observers. The engine shows it each state in the same actor step as the
/// machine enters it, so the two never disagree.
///
/// Why a lock-free read: the common request — signed in, token not about to expire — takes its
/// token from here instead of hopping onto the actor and back, where concurrent requests would
/// queue one behind another. Foundation's lock, since the inner layers import nothing else.
final class SessionPublication: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var usable: Session?
    private var published: SessionState?
    private var observers: [UUID: AsyncStream<SessionState>.Continuation] = [:]

    /// The session requests may be sent with, if any.
    var session: Session? { lock.withLock { usable } }

    /// Shows `state`: the usable session changes at once, and observers hear of a change in the
    /// published state.
    func show(_ state: SessionMachine.State) {
        let (changed, listeners) = lock.withLock { () -> (SessionState?, [AsyncStream<SessionState>.Continuation]) in
            usable = state.usable
            guard let next = state.published, next != published else { return (nil, []) }
            published = next
            return (next, Array(observers.values))
        }
        if let changed { for listener in listeners { listener.yield(changed) } }
    }

    /// The published state now and every change after it, until the caller stops iterating.
    func states() -> AsyncStream<SessionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionState.self, bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        let now = lock.withLock { () -> SessionState? in
            observers[id] = continuation
            return published
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.observers.removeValue(forKey: id) }
        }
        if let now { continuation.yield(now) }
        return stream
    }
}

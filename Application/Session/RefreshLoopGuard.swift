import Foundation

/// Stops a refresh loop: a server that answers 401 to every freshly refreshed token would
/// otherwise make each request refresh again, for ever.
struct RefreshLoopGuard: Sendable {
    /// Refreshes caused by a 401 allowed within ``window``.
    var limit = 5
    var window: TimeInterval = 30
    private var recent: [Date] = []

    /// Records a refresh at `now` and says whether it may go ahead.
    mutating func admit(at now: Date) -> Bool {
        recent.removeAll { now.timeIntervalSince($0) >= window || $0 > now }
        guard recent.count < limit else { return false }
        recent.append(now)
        return true
    }
}

import Foundation
import RiderDomain

/// The refresh ahead of expiry (docs/session.md, "Who waits on what"): a request whose token is
/// inside the leeway but still valid is sent at once with it and starts one refresh beside it
/// (``RefreshAhead``), which renews through the engine's single flight like any refresh.
extension SessionEngine {
    /// Returns when the refresh that requests started ahead of expiry has ended: called before the
    /// program exits, so a refresh the server has answered is not cut off before it is stored.
    package nonisolated func finishRefreshing() async {
        await refreshAhead.finish()
    }

    nonisolated func startRefreshAhead(at now: Date) {
        refreshAhead.start(at: now) { await self.refreshAheadOfExpiry() }
    }

    /// The refresh ``validSession()`` started. A failure for want of the network keeps the
    /// session and waits a tenth of the leeway (at least a second) before the next try; a
    /// rejection ends the session as any refresh does, and the next request learns it.
    private func refreshAheadOfExpiry() async {
        // A renewal after a 401, a sign-in or a sign-out may have come first.
        guard let current = machine.state.usable, isDue(current, at: clock.now) else { return }
        do {
            _ = try await refreshSingleFlight(rejecting: nil)
        } catch let error as RiderError where error.isTransient {
            refreshAhead.hold(until: clock.now.addingTimeInterval(max(1, refreshLeeway / 10)))
        } catch {
            // Rejected, refused or not storable: said to the requests that meet it from here on.
        }
    }
}

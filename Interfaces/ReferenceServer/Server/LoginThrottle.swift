/// How many failed password grants `/auth/token` tolerates before it answers `429` with
/// `Retry-After` instead of checking the password.
///
/// Failures are counted per email (someone guessing one rider's password) and per client
/// address (someone trying many riders' passwords), each over a sliding ``window``. While a
/// count is at its limit, password grants for that email or from that address are refused
/// without looking at the password, even a right one, until the oldest failure leaves the
/// window. A successful login clears its email's count. A well-formed device user code that
/// names no pending authorization, typed on `/device`, counts as a failure too (RFC 8628 §5.1),
/// for the email it came with and for the client, and a successful login does not clear it: a
/// person signed in as themselves must not guess other people's codes. Refresh grants are never throttled:
/// the client refreshes once per expiry, and a refused refresh would end a good session.
///
/// The defaults sit far above what tests, benchmarks and the demo do (a handful of wrong
/// passwords per server), and far below what guessing needs.
package struct LoginThrottle: Sendable, Hashable {
    /// Failed password grants for one email within ``window`` before that email is throttled.
    package var failuresPerEmail: Int
    /// Failed password grants from one client address within ``window``, whatever the
    /// emails, before that address is throttled.
    package var failuresPerClient: Int
    /// How far back failures count.
    package var window: Duration

    /// - Parameters:
    ///   - failuresPerEmail: Failures per email within the window; 10 unless given.
    ///   - failuresPerClient: Failures per client address within the window; 200 unless given.
    ///   - window: How far back failures count; 5 minutes unless given.
    package init(failuresPerEmail: Int = 10, failuresPerClient: Int = 200, window: Duration = .seconds(300)) {
        self.failuresPerEmail = failuresPerEmail
        self.failuresPerClient = failuresPerClient
        self.window = window
    }
}

import Foundation

/// Failed password grants by email and by client address, kept for ``LoginThrottle``, and
/// unknown device user codes typed on the verification page (RFC 8628 §5.1), which count the same.
///
/// Each list holds only the failures inside the window, and never more than its limit, so a
/// flood of wrong passwords costs a bounded amount of memory per key; keys with nothing left
/// in the window are swept out now and then.
struct FailedLogins: Sendable {
    let settings: LoginThrottle
    private var byEmail: [String: [Date]] = [:]
    private var byClient: [String: [Date]] = [:]
    /// Unknown user codes by the email they were typed with; a successful login does not clear
    /// these, or approving one's own device would reset a guesser's count.
    private var unknownCodesByEmail: [String: [Date]] = [:]
    private var failuresSinceSweep = 0

    init(settings: LoginThrottle) {
        self.settings = settings
    }

    private var window: TimeInterval { ReferenceStore.seconds(settings.window) }

    /// Whole seconds until a password grant for `email` from `client` will be looked at again,
    /// or `nil` when it will be now.
    mutating func retryAfter(email: String, client: String, now: Date) -> Int? {
        let waits = [
            wait(&byEmail, key: email.lowercased(), limit: settings.failuresPerEmail, now: now),
            wait(&byClient, key: client, limit: settings.failuresPerClient, now: now),
            wait(&unknownCodesByEmail, key: email.lowercased(), limit: settings.failuresPerEmail, now: now),
        ].compactMap { $0 }
        return waits.max()
    }

    /// Counts a wrong password (or an unknown email) for both keys.
    mutating func recordFailure(email: String, client: String, now: Date) {
        append(&byEmail, key: email.lowercased(), limit: settings.failuresPerEmail, now: now)
        append(&byClient, key: client, limit: settings.failuresPerClient, now: now)
        failuresSinceSweep += 1
        if failuresSinceSweep >= 1024 { sweep(now: now) }
    }

    /// Counts a well-formed user code that names no device authorization: a guess, perhaps, at
    /// someone else's pending device, which the guesser would approve as themselves.
    mutating func recordUnknownUserCode(email: String, client: String, now: Date) {
        append(&unknownCodesByEmail, key: email.lowercased(), limit: settings.failuresPerEmail, now: now)
        append(&byClient, key: client, limit: settings.failuresPerClient, now: now)
        failuresSinceSweep += 1
        if failuresSinceSweep >= 1024 { sweep(now: now) }
    }

    /// A right password forgets that email's failures; the client's stay, since one account an
    /// attacker owns must not reset their count against the others.
    mutating func recordSuccess(email: String) {
        byEmail.removeValue(forKey: email.lowercased())
    }

    private func recent(_ failures: [Date], now: Date) -> [Date] {
        let cutoff = now.addingTimeInterval(-window)
        return failures.filter { $0 > cutoff }
    }

    private func wait(_ table: inout [String: [Date]], key: String, limit: Int, now: Date) -> Int? {
        guard let failures = table[key] else { return nil }
        let kept = recent(failures, now: now)
        table[key] = kept.isEmpty ? nil : kept
        guard kept.count >= limit, let oldest = kept.first else { return nil }
        // The oldest failure leaves the window first; from then on one more attempt is allowed.
        return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }

    private func append(_ table: inout [String: [Date]], key: String, limit: Int, now: Date) {
        var kept = recent(table[key] ?? [], now: now)
        kept.append(now)
        if kept.count > limit { kept.removeFirst(kept.count - limit) }
        table[key] = kept
    }

    private mutating func sweep(now: Date) {
        failuresSinceSweep = 0
        let cutoff = now.addingTimeInterval(-window)
        byEmail = byEmail.filter { ($0.value.last ?? .distantPast) > cutoff }
        byClient = byClient.filter { ($0.value.last ?? .distantPast) > cutoff }
        unknownCodesByEmail = unknownCodesByEmail.filter { ($0.value.last ?? .distantPast) > cutoff }
    }
}

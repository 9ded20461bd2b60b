import Foundation

/// Reads a `Retry-After` header (RFC 9110 §10.2.3): delta-seconds or an HTTP-date.
///
/// One reader for the retrying transport and for the error a caller sees, so a hostile value
/// (`inf`, `-5`, forty digits) means the same thing everywhere: nothing, or at most ``maximum``.
package enum RetryAfter {
    /// The longest wait believed. Larger figures (a server bug, or forty digits) become this, so
    /// the number stays finite and printable.
    package static let maximum: TimeInterval = 366 * 24 * 3600

    /// Seconds to wait, or `nil` when `value` is neither delta-seconds nor an HTTP-date.
    /// - Parameters:
    ///   - value: the header's value.
    ///   - now: the server's clock (its `Date` header) or the device's, to measure a date against;
    ///     `nil` ignores the date form.
    /// - Returns: a finite number of seconds in `0...maximum`, or `nil`.
    package static func seconds(_ value: String, now: Date?) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        // delta-seconds = 1*DIGIT: no sign, no fraction, no exponent, no "inf".
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard let seconds = Double(trimmed), seconds.isFinite else { return maximum }
            return min(seconds, maximum)
        }
        guard let now, let date = HTTPDate.parse(trimmed) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), maximum)
    }
}

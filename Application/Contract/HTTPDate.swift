import Foundation

/// Reads the dates HTTP sends in `Date` and `Retry-After` (RFC 9110 §5.6.7): the preferred
/// IMF-fixdate and the two obsolete forms recipients must still accept.
public enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",  // Sun, 06 Nov 1994 08:49:37 GMT
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",  // Sunday, 06-Nov-94 08:49:37 GMT
        "EEE MMM d HH:mm:ss yyyy",  // Sun Nov  6 08:49:37 1994
    ]

    /// The instant `text` names, or `nil` when it is not an HTTP date.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: "  ", with: " ")
        guard !trimmed.isEmpty, trimmed.count < 64 else { return nil }
        // A formatter per call: DateFormatter is not Sendable, and these headers are rare.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }

    /// `date` as an IMF-fixdate, for servers and tests.
    public static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = formats[0]
        return formatter.string(from: date)
    }
}

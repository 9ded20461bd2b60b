import Foundation

/// Reads the dates HTTP sends in `Date` and `Retry-After` (RFC 9110 §5.6.7): the preferred
/// IMF-fixdate and the two obsolete forms recipients must still accept.
///
/// A small parser of its own over ASCII bytes rather than `DateFormatter`: on Linux,
/// Foundation's formatter crashes the process on some malformed non-ASCII input (found by
/// `make fuzz`, target fuzz-http-date), and these headers come from any server.
package enum HTTPDate {
    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant `text` names, or `nil` when it is not an HTTP date.
    package static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count < 64, trimmed.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            return nil
        }
        let words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        return imfFixdate(words) ?? rfc850(words) ?? asctime(words)
    }

    /// `date` as an IMF-fixdate, for servers and tests.
    package static func format(_ date: Date) -> String {
        // Years 1 to 9999, the range the forms can spell; also keeps Int64(_:) from trapping.
        let interval = date.timeIntervalSince1970
        let bounded = interval.isNaN ? 0 : min(max(interval, -62_135_596_800), 253_402_300_799)
        let seconds = Int64(bounded.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        // 1970-01-01 was a Thursday (index 3 from Monday).
        let weekday = Int(((days % 7) + 7 + 3) % 7)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(dayNames[weekday]), \(two(day)) \(monthNames[Int(month) - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    // MARK: - The three forms

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func imfFixdate(_ words: [String]) -> Date? {
        guard words.count == 6, words[5] == "GMT", words[0].count == 4, words[0].hasSuffix(","),
              dayNames.contains(String(words[0].dropLast())), words[1].count == 2, words[3].count == 4,
              let day = number(words[1]), let month = month(words[2]), let year = number(words[3])
        else { return nil }
        return date(year: year, month: month, day: day, time: words[4])
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`; a two-digit year 70–99 is 19xx, 00–69 is 20xx.
    private static func rfc850(_ words: [String]) -> Date? {
        guard words.count == 4, words[3] == "GMT", words[0].hasSuffix(","),
              longDayNames.contains(String(words[0].dropLast()))
        else { return nil }
        let parts = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0].count == 2, parts[2].count == 2, let day = number(parts[0]),
              let month = month(parts[1]), let shortYear = number(parts[2])
        else { return nil }
        return date(year: shortYear + (shortYear >= 70 ? 1900 : 2000), month: month, day: day, time: words[2])
    }

    /// `Sun Nov  6 08:49:37 1994`
    private static func asctime(_ words: [String]) -> Date? {
        guard words.count == 5, dayNames.contains(words[0]), let month = month(words[1]), (1...2).contains(words[2].count),
              let day = number(words[2]), words[4].count == 4, let year = number(words[4])
        else { return nil }
        return date(year: year, month: month, day: day, time: words[3])
    }

    // MARK: - Pieces

    private static func number(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }

    private static func month(_ text: String) -> Int64? {
        monthNames.firstIndex(of: text).map { Int64($0 + 1) }
    }

    /// `HH:MM:SS` on the given day, or `nil` when any part is out of range.
    private static func date(year: Int64, month: Int64, day: Int64, time: String) -> Date? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 }), let hour = number(parts[0]),
              let minute = number(parts[1]), let second = number(parts[2]),
              hour < 24, minute < 60, second <= 60, day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// The days of `month` (1–12) in `year` of the proleptic Gregorian calendar.
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

import Foundation
import RiderApplication
import Testing

@Suite("HTTP dates")
struct HTTPDateTests {
    /// 1994-11-06T08:49:37Z, RFC 9110's example.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test("an IMF-fixdate is written with the right weekday and read back to the same second")
    func formatsExample() {
        #expect(HTTPDate.format(Self.example) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
    }

    @Test("format and parse round-trip across four centuries, leap days included")
    func roundTrip() {
        var seconds: Int64 = -2_208_988_800  // 1900-01-01
        while seconds < 4_102_444_800 {  // 2100-01-01
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(HTTPDate.parse(HTTPDate.format(date)) == date, "\(seconds)")
            seconds += 86_400 * 37 + 3_661
        }
    }

    @Test("two-digit RFC 850 years: 70–99 are 19xx, 00–69 are 20xx")
    func twoDigitYears() {
        #expect(HTTPDate.parse("Thursday, 01-Jan-70 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Saturday, 01-Jan-00 00:00:00 GMT") == Date(timeIntervalSince1970: 946_684_800))
    }

    @Test("dates that do not exist, out-of-range times and malformed forms are not dates", arguments: [
        "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov +994 08:49:37 GMT",
        "Sun 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov 006 08:49:37 1994",
        "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nox 1994 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT",
    ])
    func invalid(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    /// Found by `make fuzz` (Fuzz/Corpus/fuzz-http-date/regression-dateformatter-crash): Foundation's
    /// DateFormatter on Linux stopped the process with "Incorrect range CFRange" on this input.
    @Test("malformed non-ASCII input is not a date, and does not crash")
    func nonASCII() {
        let bytes: [UInt8] = [0x54, 0x68, 0x75, 0xD6, 0xB5, 0x9E, 0x91, 0x20, 0x20, 0x32, 0x20, 0x30, 0x33, 0x3A, 0x30,
                              0x3A, 0x30, 0x35, 0x20, 0x32, 0x30, 0x35]
        #expect(HTTPDate.parse(String(decoding: bytes, as: UTF8.self)) == nil)
        #expect(HTTPDate.parse("Sün, 06 Nov 1994 08:49:37 GMT") == nil)
    }

    @Test("formatting a date beyond what the forms can spell clamps instead of crashing",
          arguments: [Double.infinity, -.infinity, .nan, 1e300, -1e300])
    func extremeDates(_ seconds: Double) {
        #expect(HTTPDate.format(Date(timeIntervalSince1970: seconds)).hasSuffix(" GMT"))
    }
}

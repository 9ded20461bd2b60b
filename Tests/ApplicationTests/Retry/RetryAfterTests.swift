import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

/// `Retry-After` from a hostile or careless server: a finite wait or none, never a crash.
@Suite("Retry-After")
struct RetryAfterTests {
    static let serverNow = Fixtures.epoch

    static let values: [(String, TimeInterval?)] = [
        ("7", 7),
        (" 0 ", 0),
        ("-5", nil),
        ("+5", nil),
        ("1.5", nil),
        ("1e3", nil),
        ("inf", nil),
        ("nan", nil),
        ("", nil),
        ("soon", nil),
        ("99999999999999999999999999999999999999", RetryAfter.maximum),
        (String(repeating: "9", count: 400), RetryAfter.maximum),
        (HTTPDate.format(serverNow.addingTimeInterval(30)), 30),
        (HTTPDate.format(serverNow.addingTimeInterval(-30)), 0),
        ("Fri, 31 Dec 9999 23:59:59 GMT", RetryAfter.maximum),
    ]

    @Test("delta-seconds or an HTTP-date give a finite wait up to the maximum; anything else gives none",
          arguments: values)
    func parse(value: String, expected: TimeInterval?) {
        #expect(RetryAfter.seconds(value, now: Self.serverNow) == expected)
    }

    @Test("without a clock to measure against, a date gives no wait rather than a guess")
    func dateWithoutNow() {
        #expect(RetryAfter.seconds(HTTPDate.format(Self.serverNow), now: nil) == nil)
        #expect(RetryAfter.seconds("12", now: nil) == 12)
    }

    @Test("a 429 whose Retry-After is inf, huge or a date still maps to a printable .rateLimited", arguments: [
        ("inf", nil),
        ("nan", nil),
        ("100000000000000000000", RetryAfter.maximum),
        (HTTPDate.format(serverNow.addingTimeInterval(42)), 42),
    ] as [(String, TimeInterval?)])
    func rateLimited(value: String, expected: TimeInterval?) {
        let response = HTTPResponse(status: 429, headers: ["Retry-After": value, "Date": HTTPDate.format(Self.serverNow)])

        let error = ProblemMapping.error(for: response)

        #expect(error == .rateLimited(retryAfter: expected))
        #expect(error.errorDescription?.isEmpty == false)
    }
}

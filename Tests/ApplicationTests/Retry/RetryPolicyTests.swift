import Foundation
import RiderApplication
import RiderDomain
import Testing

@Suite("Retry policy values")
struct RetryPolicyTests {
    @Test("backoff delays: none, fixed, capped exponential, and full jitter scaled by the random draw")
    func delays() {
        #expect(RetryPolicy(backoff: .none, maxAttempts: 3).delay(beforeRetry: 2, random: 0.3) == 0)
        #expect(RetryPolicy(backoff: .fixed(1.5), maxAttempts: 3).delay(beforeRetry: 2, random: 0.3) == 1.5)
        let exponential = RetryPolicy(backoff: .exponential(base: 0.5, multiplier: 2, max: 3), maxAttempts: 9)
        #expect((1...5).map { exponential.delay(beforeRetry: $0, random: 0) } == [0.5, 1, 2, 3, 3])
        let jitter = RetryPolicy(backoff: .jitter(base: 1, multiplier: 2, max: 8), maxAttempts: 9)
        #expect(jitter.delay(beforeRetry: 3, random: 0.25) == 1)
        #expect(jitter.delay(beforeRetry: 3, random: 0) == 0)
    }

    @Test("defaults per method: POST is never retried, everything else gets the standard policy")
    func defaults() {
        #expect(RetryPolicy.default(for: .post) == .none)
        #expect(RetryPolicy.default(for: .get) == .standard)
        #expect(RetryPolicy.default(for: .patch) == .standard)
        #expect(RetryPolicy(backoff: .none, maxAttempts: 0).maxAttempts == 1)
    }

    @Test("HTTP dates in all three RFC 9110 forms are read; anything else is not", arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", true), ("Sunday, 06-Nov-94 08:49:37 GMT", true),
        ("Sun Nov  6 08:49:37 1994", true), ("yesterday", false), ("", false), ("1994-11-06T08:49:37Z", false),
    ])
    func httpDates(text: String, valid: Bool) {
        let date = HTTPDate.parse(text)
        #expect((date != nil) == valid, "\(text)")
        if let date { #expect(date == Date(timeIntervalSince1970: 784_111_777)) }
    }
}

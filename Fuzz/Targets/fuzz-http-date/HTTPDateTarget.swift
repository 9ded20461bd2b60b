import Foundation
import FuzzSupport
import RiderApplication
import RiderDomain

// `Date` and `Retry-After` header values: the whole input is the value.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPDate(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = FuzzInput(start, count: count).text
    if let date = HTTPDate.parse(text) {
        precondition(date.timeIntervalSince1970.isFinite)
        _ = HTTPDate.format(date)
    }
    for now in [FuzzFixtures.now, nil] {
        if let seconds = RetryAfter.seconds(text, now: now) {
            precondition(seconds.isFinite && seconds >= 0 && seconds <= RetryAfter.maximum, "Retry-After \(seconds)")
            FuzzInvariant.printable(RiderError.rateLimited(retryAfter: seconds))
        }
    }
    return 0
}

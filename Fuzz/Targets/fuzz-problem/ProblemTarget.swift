import Foundation
import FuzzSupport
import RiderApplication
import RiderDomain

// An error answer from any other endpoint: first line = `Retry-After`, rest = the body (RFC 9457
// problem details, or anything), sent with every status ProblemMapping distinguishes.

private let statuses = [400, 401, 403, 404, 409, 410, 412, 418, 422, 429, 500, 502, 503]
private let serverDate = HTTPDate.format(FuzzFixtures.now)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProblem(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count: count)
    for status in statuses {
        for headers: HTTPHeaders in [["Retry-After": input.headerLine, "Date": serverDate], ["Retry-After": input.headerLine]] {
            let error = ProblemMapping.error(for: HTTPResponse(status: status, headers: headers, body: input.body))
            FuzzInvariant.printable(error)
            if error.code == .rateLimited, let retryAfter = error.retryAfter {
                precondition(retryAfter.isFinite && retryAfter >= 0 && retryAfter <= RetryAfter.maximum)
            }
        }
    }
    return 0
}

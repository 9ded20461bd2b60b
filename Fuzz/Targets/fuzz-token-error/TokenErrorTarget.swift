import Foundation
import FuzzSupport
import RiderApplication
import RiderDomain

// A failed answer from the token endpoint (RFC 6749 §5.2): first line = `WWW-Authenticate`,
// rest = the body, sent with each status a token endpoint uses, for both grants.

private let statuses = [400, 401, 403, 429, 500, 503]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenError(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count: count)
    for status in statuses {
        let response = HTTPResponse(status: status, headers: ["WWW-Authenticate": input.headerLine, "Retry-After": "5"],
                                    body: input.body)
        for grant in [TokenErrorMapping.Grant.password, .refreshToken] {
            let error = TokenErrorMapping.error(for: response, grant: grant)
            FuzzInvariant.printable(error)
            if grant == .refreshToken, status == 400 || status == 401 {
                precondition(error != .invalidCredentials, "a refused refresh token reported as a wrong password")
            }
        }
    }
    return 0
}

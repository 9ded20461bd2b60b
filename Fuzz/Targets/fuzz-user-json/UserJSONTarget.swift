import Foundation
import FuzzSupport
import RiderApplication
import RiderDomain

// A 200 answer with a user, a page of users, a rider profile, a registration, preferences, a
// base location or sports: first line = `ETag`, rest = the body, read by every endpoint that
// decodes one.

private let configuration = FuzzFixtures.baseURL.flatMap { try? APIConfiguration(baseURL: $0) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUserJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let configuration else { preconditionFailure("the fuzz configuration does not build") }
    let input = FuzzInput(start, count: count)
    let response = HTTPResponse(status: 200, headers: ["ETag": input.headerLine], body: input.body)
    check { String(describing: try API.me(in: configuration).response(from: response)) }
    check { String(describing: try API.user("u_000001").response(from: response)) }
    check { String(describing: try API.user("u_000001", ifNoneMatch: EntityTag(rawValue: "\"v1\"")).response(from: response)) }
    check { String(describing: try API.searchUsers("ada", page: try PageRequest()).response(from: response)) }
    check { String(describing: try API.listUsers(page: try PageRequest()).response(from: response)) }
    check { String(describing: try API.myRider.response(from: response)) }
    check { String(describing: try API.register(.init(email: "a@b.c", password: "fuzz-password-secret",
                                                       displayName: "A", riderType: .learner)).response(from: response)) }
    check { String(describing: try API.myPreferences.response(from: response)) }
    check { String(describing: try API.myBaseLocation.response(from: response)) }
    check { String(describing: try API.sports.response(from: response)) }
    check { String(describing: try API.mySports.response(from: response)) }
    return 0
}

private func check(_ decode: () throws -> String) {
    do {
        _ = try decode()
    } catch {
        FuzzInvariant.printable(error)
    }
}

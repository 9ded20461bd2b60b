import Foundation
import FuzzSupport
import RiderApplication
import RiderDomain

// A 200 answer with a user, a page of users, a rider profile, a registration, the sport
// catalogue, the rider's sports, a base location or preferences: first line = `ETag` (also used
// as `Cache-Control`), rest = the body, read by every endpoint that decodes one. Preferences that
// decode are also encoded back, the path that keeps members the client does not know.

private let configuration = FuzzFixtures.baseURL.flatMap { try? APIConfiguration(baseURL: $0) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUserJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let configuration else { preconditionFailure("the fuzz configuration does not build") }
    let input = FuzzInput(start, count: count)
    let response = HTTPResponse(status: 200, headers: ["ETag": input.headerLine], body: input.body)
    agreesWithJSONDecoder(input.body)
    check { String(describing: try API.me(in: configuration).response(from: response)) }
    check { String(describing: try API.user("u_000001").response(from: response)) }
    check { String(describing: try API.user("u_000001", ifNoneMatch: EntityTag(rawValue: "\"v1\"")).response(from: response)) }
    check { String(describing: try API.searchUsers("ada", page: try PageRequest()).response(from: response)) }
    check { String(describing: try API.listUsers(page: try PageRequest()).response(from: response)) }
    check { String(describing: try API.myRider.response(from: response)) }
    check { String(describing: try API.register(.init(email: "a@b.c", password: "fuzz-password-secret",
                                                       displayName: "A", riderType: .learner)).response(from: response)) }
    let cacheable = HTTPResponse(status: 200, headers: ["Cache-Control": input.headerLine], body: input.body)
    check { String(describing: try API.sports.response(from: cacheable)) }
    check { String(describing: try API.mySports.response(from: response)) }
    check { String(describing: try API.setMySport("gravel", level: .expert).response(from: response)) }
    check { String(describing: try API.myBaseLocation.response(from: response)) }
    check {
        let preferences = try API.myPreferences.response(from: response)
        return String(describing: try API.setMyPreferences(preferences).body)
    }
    return 0
}

/// The hot path's reader (`FlatJSONObject`) answers only where `JSONDecoder` gives the same
/// user, to the last bit of the date: it is a fast path, never a second opinion.
private func agreesWithJSONDecoder(_ body: Data) {
    guard let object = FlatJSONObject(body), let flat = UserDTO(flat: object) else { return }
    guard let full = try? ContractCoding.decodeWithJSONDecoder(UserDTO.self, from: body, what: "user") else {
        preconditionFailure("the flat reader took a user JSONDecoder refuses: \(flat)")
    }
    precondition(flat.toDomain() == full.toDomain(), "the flat reader read \(flat), JSONDecoder \(full)")
}

private func check(_ decode: () throws -> String) {
    do {
        _ = try decode()
    } catch {
        FuzzInvariant.printable(error)
    }
}

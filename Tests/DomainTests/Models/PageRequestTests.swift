import Foundation
import RiderDomain
import Testing

@Suite("PageRequest")
struct PageRequestTests {
    @Test("defaults to the first page of 20")
    func defaults() throws {
        let request = try PageRequest()
        #expect(request.page == 1)
        #expect(request.limit == 20)
    }

    @Test("accepts the bounds of the contract", arguments: [(1, 1), (1, 100), (999, 50)])
    func bounds(page: Int, limit: Int) throws {
        let request = try PageRequest(page: page, limit: limit)
        #expect(request.page == page && request.limit == limit)
    }

    @Test("rejects a page below 1 or a limit outside 1…100, naming the field", arguments: [
        (0, 20, ["page"]), (-1, 20, ["page"]), (1, 0, ["limit"]), (1, 101, ["limit"]), (0, 101, ["page", "limit"]),
    ])
    func rejects(page: Int, limit: Int, fields: [String]) {
        #expect {
            try PageRequest(page: page, limit: limit)
        } throws: { error in
            guard let riderError = error as? RiderError, riderError.code == .invalidInput, case let problems = riderError.fieldProblems else { return false }
            return problems.map(\.field) == fields
        }
    }
}

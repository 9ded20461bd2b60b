import RiderKit

/// The cache-first hits never reach the network; anything that does is a benchmark bug.
struct RefusingTransport: HTTPTransport {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw RiderError.serverUnreachable(reason: "the benchmark has no server")
    }
}

import RiderKit

/// Answers every request at once with one recorded response: under the whole stack it leaves
/// only RiderKit's own work per request (decorators, session engine, decoding, cache write), with
/// no network, event loop or thread wake-up in the figure.
struct InstantTransport: HTTPTransport {
    let response: HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse { response }
}

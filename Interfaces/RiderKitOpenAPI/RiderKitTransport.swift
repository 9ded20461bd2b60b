import Foundation
import HTTPTypes
import OpenAPIRuntime
import RiderDomain
import RiderKit

/// A swift-openapi-generator client's transport that sends with the transport RiderKit was
/// configured with (AsyncHTTPClient unless told): its proxies, limits, timeouts and handling of
/// stale connections, and no redirect followed behind RiderKit's back.
///
/// Pair it with ``RiderSessionMiddleware``, which adds the session; on its own it sends requests
/// as they are.
public struct RiderKitTransport: ClientTransport {
    private let transport: any RiderDomain.HTTPTransport

    /// - Parameter rider: whose transport to send with.
    public init(_ rider: RiderKit) {
        transport = rider.transport
    }

    /// Sends `request` to `baseURL` with RiderKit's transport.
    /// - Throws: `RiderError` (`.serverUnreachable`, `.timedOut`, …) for failures of the wire.
    public func send(_ request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL,
                     operationID: String) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        let outgoing = try await OpenAPIConversion.request(request, body: body, baseURL: baseURL)
        return OpenAPIConversion.response(try await transport.send(outgoing))
    }
}

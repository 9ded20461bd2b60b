import Foundation
import RiderDomain

/// Sends ``Endpoint`` values: public ones straight to the transport, authorized ones through
/// the session engine.
public struct APIClient: Sendable {
    public let configuration: APIConfiguration
    private let transport: any HTTPTransport
    private let authorizedTransport: AuthorizingTransport

    public init(configuration: APIConfiguration, transport: any HTTPTransport, sessions: SessionEngine) {
        self.configuration = configuration
        self.transport = transport
        self.authorizedTransport = AuthorizingTransport(base: transport, sessions: sessions)
    }

    /// Sends `endpoint` and returns its decoded response.
    /// - Throws: ``RiderError`` for every failure the contract knows, `CancellationError` when cancelled.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws -> Response {
        let request = try endpoint.request(in: configuration)
        let response: HTTPResponse
        switch endpoint.authorization {
        case .none: response = try await transport.send(request)
        case .bearer: response = try await authorizedTransport.send(request)
        }
        return try endpoint.response(from: response)
    }

    /// Sends an authorized `endpoint` with the given session's token, bypassing the engine
    /// (used right after login, before the session is established).
    public func send<Response>(_ endpoint: Endpoint<Response>, as session: Session) async throws -> Response {
        let request = AuthorizingTransport.authorize(try endpoint.request(in: configuration), with: session)
        return try endpoint.response(from: try await transport.send(request))
    }
}

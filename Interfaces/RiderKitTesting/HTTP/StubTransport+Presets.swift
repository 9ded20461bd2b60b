import Foundation
import RiderApplication
import RiderDomain
import Testing

extension StubTransport {
    /// A transport that answers every route of the API contract successfully with the sample data
    /// of ``Fixtures`` — any email and password sign in, searches find the two sample riders,
    /// profile edits are echoed back — so every use case runs with no server. Scripts added
    /// later win over these answers; a path outside the contract is still unexpected.
    /// - Parameters:
    ///   - api: where the routes live (a base path, a token endpoint elsewhere); the contract's
    ///     default paths unless told.
    ///   - sourceLocation: where unexpected requests are reported; defaults to the calling line.
    /// - Returns: the transport.
    public static func successful(api: APIConfiguration? = nil,
                                  sourceLocation: SourceLocation = #_sourceLocation) -> StubTransport {
        let transport = StubTransport(sourceLocation: sourceLocation)
        let canned = CannedAPI(api: api)
        transport.answerUnscripted { canned.reply(to: $0) }
        return transport
    }

    /// A transport on which every request fails with `error` unless a script answers it: a
    /// server that cannot be reached, by default.
    /// - Parameters:
    ///   - error: what every unscripted request throws.
    ///   - sourceLocation: where unexpected requests would be reported.
    /// - Returns: the transport.
    public static func failing(
        with error: any Error = RiderError.serverUnreachable(reason: "connection refused"),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> StubTransport {
        let transport = StubTransport(sourceLocation: sourceLocation)
        transport.answerUnscripted { _ in .failure(error) }
        return transport
    }
}

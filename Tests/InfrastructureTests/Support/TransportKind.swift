import Foundation
import RiderDomain
import RiderInfrastructure
import RiderURLSession
import Testing

/// The two HTTP transports RiderKit ships: every promise of the port is checked against both.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case asyncHTTPClient = "AsyncHTTPClientTransport"
    case urlSession = "URLSessionTransport"

    var testDescription: String { rawValue }

    /// Generous default timeout: the whole suite runs at once, and a request that times out in a
    /// queue would turn a correctness test into a speed test.
    func make(timeout: TimeInterval = 60, maximumResponseBytes: Int = 8 << 20) -> any HTTPTransport {
        switch self {
        case .asyncHTTPClient:
            AsyncHTTPClientTransport(configuration: .init(timeout: timeout, maximumResponseBytes: maximumResponseBytes,
                                                          proxies: .none))
        case .urlSession:
            URLSessionTransport(configuration: .init(timeout: timeout, maximumResponseBytes: maximumResponseBytes))
        }
    }
}

import Foundation
import RiderDomain
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests with Foundation's `URLSession` (curl-based on Linux).
///
/// Maps every URL loading failure to a ``RiderError`` at this seam, so nothing above it
/// sees `URLError`.
public final class URLSessionTransport: HTTPTransport {
    /// Limits the transport enforces whatever the request asks.
    public struct Configuration: Sendable {
        /// Used when a request names no timeout.
        public var timeout: TimeInterval
        /// Responses larger than this fail with ``RiderError/malformedResponse(_:)`` rather than
        /// exhausting memory.
        public var maximumResponseBytes: Int

        public init(timeout: TimeInterval = 15, maximumResponseBytes: Int = 8 << 20) {
            self.timeout = timeout
            self.maximumResponseBytes = maximumResponseBytes
        }
    }

    private let session: URLSession
    private let configuration: Configuration

    /// - Parameter session: injected so callers control connection reuse and proxies; the default
    ///   is an ephemeral session that keeps no cookies and no response cache (responses may
    ///   carry personal data) and does not follow redirects. A session you inject should not follow
    ///   redirects either (see ``makeEphemeralSession(timeout:)``): on Linux Foundation would send
    ///   the bearer token to whatever host a redirect names.
    public init(session: URLSession? = nil, configuration: Configuration = Configuration()) {
        self.session = session ?? URLSessionTransport.makeEphemeralSession(timeout: configuration.timeout)
        self.configuration = configuration
    }

    /// An ephemeral session without cookies or caching that returns 3xx responses as they are,
    /// for `RedirectFollowingTransport` to follow safely.
    public static func makeEphemeralSession(timeout: TimeInterval) -> URLSession {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.timeoutIntervalForRequest = timeout
        sessionConfiguration.timeoutIntervalForResource = max(timeout * 4, 60)
        return URLSession(configuration: sessionConfiguration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.timeoutInterval = request.timeout ?? configuration.timeout
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw Self.map(error, for: request)
        }
        guard let http = response as? HTTPURLResponse else {
            throw RiderError.malformedResponse("the answer to \(request) is not an HTTP response")
        }
        guard data.count <= configuration.maximumResponseBytes else {
            throw RiderError.malformedResponse(
                "the answer to \(request) is larger than \(configuration.maximumResponseBytes) bytes")
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers.add(name, value) }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    static func map(_ error: any Error, for request: HTTPRequest) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        guard let urlError = error as? URLError else {
            return RiderError.serverUnreachable(reason: "\(type(of: error))")
        }
        let host = request.url.host ?? "the server"
        switch urlError.code {
        case .timedOut:
            return RiderError.timedOut
        case .cancelled:
            return CancellationError()
        case .cannotConnectToHost:
            return RiderError.serverUnreachable(reason: "connection to \(host) refused")
        case .cannotFindHost, .dnsLookupFailed:
            return RiderError.serverUnreachable(reason: "\(host) not found")
        case .notConnectedToInternet:
            return RiderError.serverUnreachable(reason: "no network connection")
        case .networkConnectionLost:
            return RiderError.serverUnreachable(reason: "connection to \(host) lost")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return RiderError.serverUnreachable(reason: "TLS connection to \(host) failed")
        case .badURL, .unsupportedURL:
            return RiderError.invalidConfiguration("the URL for \(request) is not usable")
        case .badServerResponse, .cannotParseResponse, .zeroByteResource:
            return RiderError.malformedResponse("\(host) sent a broken HTTP response")
        case .dataLengthExceedsMaximum:
            return RiderError.malformedResponse("the answer from \(host) is too large")
        default:
            return RiderError.serverUnreachable(reason: "URL error \(urlError.code.rawValue) talking to \(host)")
        }
    }
}

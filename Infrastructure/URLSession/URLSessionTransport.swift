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
        /// Responses larger than this fail with ``RiderError/malformedResponse(_:underlying:)`` rather than
        /// exhausting memory.
        public var maximumResponseBytes: Int

        public init(timeout: TimeInterval = 15, maximumResponseBytes: Int = 8 << 20) {
            self.timeout = timeout
            self.maximumResponseBytes = maximumResponseBytes
        }
    }

    private let session: URLSession
    private let delegate: TransferDelegate
    private let configuration: Configuration

    /// - Parameter sessionConfiguration: proxies, TLS and connection settings; the default is an
    ///   ephemeral configuration that keeps no cookies, no credentials and no response cache
    ///   (responses may carry personal data). The transport always builds its own `URLSession`
    ///   around it, because on Linux only a session delegate can stop Foundation from following
    ///   redirects with the bearer token and from hanging on a `401` with `WWW-Authenticate`.
    public init(sessionConfiguration: URLSessionConfiguration? = nil, configuration: Configuration = Configuration()) {
        let delegate = TransferDelegate()
        self.delegate = delegate
        self.session = URLSession(
            configuration: sessionConfiguration ?? URLSessionTransport.ephemeralConfiguration(timeout: configuration.timeout),
            delegate: delegate, delegateQueue: nil)
        self.configuration = configuration
    }

    deinit {
        // A session keeps a strong reference to its delegate until invalidated.
        session.finishTasksAndInvalidate()
    }

    /// An ephemeral configuration without cookies, credential storage or caching.
    package static func ephemeralConfiguration(timeout: TimeInterval) -> URLSessionConfiguration {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.urlCache = nil
        sessionConfiguration.urlCredentialStorage = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.timeoutIntervalForRequest = timeout
        sessionConfiguration.timeoutIntervalForResource = max(timeout * 4, 60)
        return sessionConfiguration
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.hasHTTPURL else {
            throw RiderError.invalidConfiguration("the URL for \(request) is not usable")
        }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.timeoutInterval = request.timeout ?? configuration.timeout
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body

        if Task.isCancelled { throw CancellationError() }
        let outcome: TransferDelegate.Outcome
        do {
            outcome = try await delegate.run(session.dataTask(with: urlRequest),
                                             maximumBytes: configuration.maximumResponseBytes,
                                             progress: request.body == nil ? nil : UploadProgress.observer)
        } catch TransferDelegate.Failure.tooLarge {
            throw RiderError.malformedResponse(
                "the answer to \(request) is larger than \(configuration.maximumResponseBytes) bytes")
        } catch TransferDelegate.Failure.noResponse {
            throw RiderError.malformedResponse("the answer to \(request) is not an HTTP response")
        } catch {
            throw Self.map(error, for: request)
        }
        var headers = HTTPHeaders()
        for (name, value) in outcome.response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers.add(name, value) }
        }
        return HTTPResponse(status: outcome.response.statusCode, headers: headers, body: outcome.body)
    }

    static func map(_ error: any Error, for request: HTTPRequest) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        guard let urlError = error as? URLError else {
            return RiderError.serverUnreachable(reason: "\(type(of: error))", underlying: error)
        }
        let host = request.url.host ?? "the server"
        switch urlError.code {
        case .timedOut:
            return RiderError.timedOut
        case .cancelled:
            return CancellationError()
        case .cannotConnectToHost:
            return RiderError.serverUnreachable(reason: "connection to \(host) refused", underlying: error)
        case .cannotFindHost, .dnsLookupFailed:
            return RiderError.serverUnreachable(reason: "\(host) not found", underlying: error)
        case .notConnectedToInternet:
            return RiderError.serverUnreachable(reason: "no network connection", underlying: error)
        case .networkConnectionLost:
            return RiderError.serverUnreachable(reason: "connection to \(host) lost", underlying: error)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return RiderError.serverUnreachable(reason: "TLS connection to \(host) failed", underlying: error)
        case .badURL, .unsupportedURL:
            return RiderError.invalidConfiguration("the URL for \(request) is not usable")
        case .badServerResponse, .cannotParseResponse, .zeroByteResource:
            // On Linux this is also what a connection closed before any answer looks like (curl's
            // "empty reply"): a network failure like a lost connection, so safe requests are
            // retried and reads may fall back to the cache (found by FaultInjectionTests).
            return RiderError.serverUnreachable(reason: "\(host) closed the connection without a usable HTTP answer", underlying: error)
        case .dataLengthExceedsMaximum:
            return RiderError.malformedResponse("the answer from \(host) is too large")
        default:
            return RiderError.serverUnreachable(reason: "URL error \(urlError.code.rawValue) talking to \(host)", underlying: error)
        }
    }
}

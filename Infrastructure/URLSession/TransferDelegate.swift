import Foundation
import Synchronization
import RiderDomain
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate behind ``URLSessionTransport``: collects each task's response and
/// body, refuses redirects and declines authentication challenges.
///
/// Why a delegate rather than `URLSession.data(for:)`, measured with Swift 6.3 on Linux:
/// - Foundation copies every header, `Authorization` included, to a redirect target on any
///   host, and only a *session* delegate is consulted (the per-task delegate of
///   `data(for:delegate:)` is ignored). RiderKit follows redirects itself
///   (`RedirectMiddleware`) and drops credentials when the origin changes.
/// - A `401` carrying `WWW-Authenticate: Basic` (what RFC 6749 §5.2 tells a token endpoint to
///   send for a wrong client secret) raises a challenge; with no credential to offer,
///   swift-corelibs-foundation neither retries nor completes the task, so the request hangs
///   forever (swift-corelibs-foundation#5456). Declining the challenge cancels the task, and the
///   `401` that already arrived is handed on as an ordinary response.
final class TransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    struct Outcome: Sendable {
        let response: HTTPURLResponse
        let body: Data
    }

    enum Failure: Error, Equatable {
        case tooLarge
        case noResponse
    }

    private struct Transfer {
        let continuation: CheckedContinuation<Outcome, any Error>
        let maximumBytes: Int
        let progress: (@Sendable (UploadProgress) -> Void)?
        var response: HTTPURLResponse?
        var body = Data()
        var tooLarge = false
        var declinedChallenge = false
    }

    private let transfers = Mutex<[Int: Transfer]>([:])

    /// Runs `task` to completion; cancelling the calling Swift task cancels it. `progress` hears
    /// of the request body as Foundation sends it.
    func run(_ task: URLSessionDataTask, maximumBytes: Int,
             progress: (@Sendable (UploadProgress) -> Void)? = nil) async throws -> Outcome {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Outcome, any Error>) in
                transfers.withLock {
                    $0[task.taskIdentifier] = Transfer(continuation: continuation, maximumBytes: maximumBytes,
                                                       progress: progress)
                }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                    totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        guard let progress = transfers.withLock({ $0[task.taskIdentifier]?.progress }) else { return }
        let total = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : totalBytesSent
        progress(UploadProgress(sentBytes: Int(clamping: totalBytesSent), totalBytes: Int(clamping: total)))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        transfers.withLock { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit = transfers.withLock { transfers -> Bool in
            guard var transfer = transfers[dataTask.taskIdentifier], !transfer.tooLarge else { return false }
            if transfer.body.count + data.count > transfer.maximumBytes {
                transfer.tooLarge = true
                transfer.body = Data()
            } else {
                transfer.body.append(data)
            }
            transfers[dataTask.taskIdentifier] = transfer
            return transfer.tooLarge
        }
        // Stop downloading at once instead of buffering a hostile body to the end.
        if overLimit { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let response = transfer.response ?? (task.response as? HTTPURLResponse)
        if transfer.tooLarge {
            transfer.continuation.resume(throwing: Failure.tooLarge)
        } else if let error, !(transfer.declinedChallenge && response != nil) {
            transfer.continuation.resume(throwing: error)
        } else if let response {
            transfer.continuation.resume(returning: Outcome(response: response, body: transfer.body))
        } else {
            transfer.continuation.resume(throwing: Failure.noResponse)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        // RiderKit answers 401s itself (refresh, or a typed error); URLSession must not.
        transfers.withLock { transfers in
            transfers[task.taskIdentifier]?.declinedChallenge = true
            if transfers[task.taskIdentifier]?.response == nil {
                transfers[task.taskIdentifier]?.response = challenge.failureResponse as? HTTPURLResponse
            }
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Makes `URLSession` hand back 3xx responses instead of following them.
///
/// Foundation on Linux copies every header, `Authorization` included, to a redirect target on
/// any host. RiderKit follows redirects itself (`RedirectFollowingTransport`), dropping
/// credentials when the origin changes. Measured here: with Swift 6.3 on Linux only a session
/// delegate is consulted; the per-task delegate of `data(for:delegate:)` is ignored.
final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

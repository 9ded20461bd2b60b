import Foundation
import RiderDomain

/// Decorates a transport: each request and its response are also written to a folder, one JSON
/// file per exchange under the request's path (`DIR/auth/me/GET-0001.json`), for
/// ``ReplayTransport`` to answer from later or for a person to read.
///
/// No secret is written: credentials headers, cookies, and the token, password and client-secret
/// fields of JSON bodies, form bodies and queries are replaced by placeholders
/// (``TokenPlaceholders``) before anything reaches the disk. Files are 0600 in 0700 folders,
/// written atomically; several processes may record into one folder, one after another or at once.
package struct RecordingTransport: HTTPTransport {
    private let base: any HTTPTransport
    /// Where the recording goes.
    package let folder: URL
    private let wallClock: any Clock
    private let recordingClock: RecordingClock

    /// - Parameters:
    ///   - base: the transport that really sends.
    ///   - folder: the recording; created 0700 when missing, appended to when it exists.
    ///   - clock: tells when requests were sent and answered.
    package init(base: any HTTPTransport, folder: URL, clock: any Clock = SystemClock()) {
        self.base = base
        self.folder = folder
        wallClock = clock
        recordingClock = RecordingClock(base: clock)
    }

    /// The clock for the client that records: once a response has arrived it tells the time it
    /// arrived, as written in the recording, until the next one does — so what the client stamps
    /// with the time (a session's expiry, when a user was cached) comes out the same in a replay.
    package var clock: any Clock { recordingClock }

    /// Sends through the base transport, then records the exchange — also a request that got no
    /// response (``RiderError/serverUnreachable(reason:underlying:)``, ``RiderError/timedOut``), which is
    /// then thrown as it came.
    /// - Throws: what the base transport throws, or ``RiderError/storage(_:underlying:)`` when the exchange
    ///   cannot be recorded (the response is not returned then, since a replay would miss it).
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let sentAt = wallClock.now
        let response: HTTPResponse
        do {
            response = try await base.send(request)
        } catch {
            guard let failure = RecordedExchange.Failure(error) else { throw error }
            try await record(request, .failure(failure), sentAt: sentAt)
            throw error
        }
        try await record(request, .success(response), sentAt: sentAt)
        return response
    }

    private func record(_ request: HTTPRequest, _ outcome: Result<HTTPResponse, RecordedExchange.Failure>,
                        sentAt: Date) async throws {
        let receivedAt = wallClock.now
        let files = RecordingFolder(root: folder)
        do {
            _ = try await BlockingWork.run { () throws(VaultError) -> URL in
                try files.append(method: request.method.rawValue, path: request.url.path) { placeholders in
                    RecordedExchange(request: request, outcome: outcome, sentAt: sentAt, receivedAt: receivedAt,
                                     placeholders: &placeholders)
                }
            }
        } catch {
            throw RiderError.storage("the recording \(folder.path) cannot be written: \(error.message)")
        }
        recordingClock.pin(receivedAt)
    }
}

import Foundation
import RiderDomain
import Synchronization

/// An ``HTTPTransport`` that sends nothing: it answers each request from a folder a
/// ``RecordingTransport`` wrote, each route's (method and path) recordings in the order they
/// were recorded.
///
/// Matching ignores the query, headers and body — so a replayed client may send the
/// placeholders it was given instead of the recorded tokens and passwords. A request with no
/// recording left fails with ``RiderError/invalidConfiguration(_:underlying:)`` naming its method and path
/// only. Recorded failures (an unreachable server, a timeout) are thrown again. Use ``clock`` as
/// the client's clock so that everything that depends on the time happens as recorded.
package final class ReplayTransport: HTTPTransport {
    /// The recording answered from.
    package let folder: URL
    private let files: RecordingFolder
    private let acrossRuns: Bool
    private let schedule: Mutex<ReplaySchedule>

    /// Reads every recording in `folder`.
    /// - Parameters:
    ///   - folder: what ``RecordingTransport`` wrote.
    ///   - acrossRuns: `true` keeps the position in the folder (`.replay-position.json`), so each
    ///     run — each command of a recorded CLI session — continues where the previous one
    ///     stopped, and a run after the last recording was served starts over; `false` starts at
    ///     the first recordings every time.
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` when the folder does not exist or a
    ///   recording in it cannot be read.
    package init(folder: URL, acrossRuns: Bool = false) throws {
        self.folder = folder
        files = RecordingFolder(root: folder)
        self.acrossRuns = acrossRuns
        schedule = Mutex(ReplaySchedule(recordings: try files.recordings(),
                                        served: acrossRuns ? files.replayPosition() : [:]))
    }

    /// The recording's time, for the client replaying it: when the last replayed response was
    /// received, or before any, when the next recorded request was sent. Its `sleep` returns at
    /// once, since nothing is waited for in a replay.
    package var clock: any Clock { ReplayClock(replay: self) }

    /// The time ``clock`` tells.
    var now: Date { schedule.withLock { $0.now } }

    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` when no recording is left for the
    ///   request's method and path, the recorded failure, or ``RiderError/storage(_:underlying:)`` when the
    ///   position cannot be kept.
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let route = ReplaySchedule.route(method: request.method.rawValue, path: request.url.path)
        let answer = acrossRuns ? try await answerKeepingPosition(route) : schedule.withLock { $0.answer(route) }
        switch answer {
        case .recorded(let exchange):
            if let failure = exchange.failure { throw failure.error }
            guard let response = exchange.response else {
                throw RiderError.invalidConfiguration("the recording of \(route) in \(folder.path) has no response")
            }
            return HTTPResponse(status: response.status, headers: RecordedExchange.headers(response.headers),
                                body: try RecordedExchange.bytes(text: response.body, base64: response.bodyBase64))
        case .unknownRoute:
            throw RiderError.invalidConfiguration("no recording for \(route) in \(folder.path)")
        case .exhausted(let count):
            let restart = acrossRuns ? ", or delete \(files.positionFile.path) to start over" : ""
            throw RiderError.invalidConfiguration("no recording left for \(route) in \(folder.path): "
                + "all \(count) were replayed (replay the commands in the order they were recorded\(restart))")
        }
    }

    /// Serves and writes the new position in one step, on a thread of its own, so concurrent
    /// requests never write an older position over a newer one.
    private func answerKeepingPosition(_ route: String) async throws -> ReplaySchedule.Answer {
        do {
            return try await BlockingWork.run { () throws(VaultError) -> ReplaySchedule.Answer in
                try self.schedule.withLock { schedule throws(VaultError) -> ReplaySchedule.Answer in
                    let answer = schedule.answer(route)
                    if case .recorded = answer { try self.files.saveReplayPosition(schedule.served) }
                    return answer
                }
            }
        } catch {
            throw RiderError.storage("the replay position cannot be kept: \(error.message)")
        }
    }
}

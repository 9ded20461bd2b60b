import Foundation
import RiderDomain
import RiderInfrastructure

/// Whether ``RiderKit/live(configuration:)`` records its HTTP exchanges or answers from a
/// recording (``RiderKit/Configuration/recording``); `rider --record DIR` and `--replay DIR`.
public enum HTTPRecording: Hashable, Sendable {
    /// Sends as usual and writes each exchange into the folder, secrets replaced by
    /// placeholders (`RecordingTransport`), with the recorder's clock. Recording into a folder
    /// that holds one appends.
    case record(into: URL)
    /// Sends nothing: answers from the folder's recordings (`ReplayTransport`) and tells the
    /// time as recorded. With `acrossRuns`, each run continues where the previous one stopped,
    /// as the commands of a recorded CLI session do.
    case replay(from: URL, acrossRuns: Bool = false)

    /// Where a replay keeps its session, user cache and sport catalogue between runs: a hidden
    /// folder inside the recording, which no recorded request path can name.
    static func replayState(in folder: URL) -> URL {
        folder.appendingPathComponent(".replay-state", isDirectory: true)
    }

    /// The replay vault's passphrase. Not a secret, and it need not be: the session it seals
    /// holds only the recording's placeholders, never a token a server issued; the encrypted
    /// file is used so a replay runs through the same vault code as a real session.
    static let replayPassphrase = "riderkit-replay-placeholders"

    /// The transport and clock for this mode.
    /// - Parameter network: makes the real transport; never called for a replay.
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` when a replay's folder cannot be read.
    func make(network: () -> any HTTPTransport) throws -> (transport: any HTTPTransport, clock: any Clock) {
        switch self {
        case .record(let folder):
            let recorder = RecordingTransport(base: network(), folder: folder)
            return (recorder, recorder.clock)
        case .replay(let folder, let acrossRuns):
            let replay = try ReplayTransport(folder: folder, acrossRuns: acrossRuns)
            return (replay, replay.clock)
        }
    }
}

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

    /// The transport and clock for this mode.
    /// - Parameter network: makes the real transport; never called for a replay.
    /// - Throws: ``RiderError/invalidConfiguration(_:)`` when a replay's folder cannot be read.
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

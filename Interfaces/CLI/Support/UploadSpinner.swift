import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An indeterminate progress line on standard error while an upload runs: a spinner, the file's
/// size and the time so far (`| Uploading me.jpg (4.2 MiB)… 3 s`), erased when it ends.
///
/// Why a spinner and not a bar with a percentage: the `HTTPTransport` port hands over a whole
/// request and returns once the response is in, so nobody above the adapters learns how many
/// bytes have left. Reporting them would mean a progress callback (or a streaming body) on
/// `HTTPRequest`, a plain `Hashable` value today, implemented by both adapters through their
/// own delegate APIs — a change to the port for every adapter, for uploads of at most 5 MiB.
/// A bar that guessed would lie; elapsed time does not (docs/avatar.md, "Progress").
struct UploadSpinner: Sendable {
    /// Files smaller than this upload in a blink on any link worth the name: no spinner.
    static let minimumByteCount = 256 * 1024

    private let task: Task<Void, Never>?

    /// Starts the spinner when it can help: a large file, standard error a terminal, and no
    /// `--json` (whose errors go to standard error as JSON, which a spinner would corrupt).
    /// - Parameters:
    ///   - label: what is being sent, such as `Uploading me.jpg (4.2 MiB)`.
    ///   - byteCount: the upload's size.
    ///   - json: whether `--json` was given.
    static func start(_ label: String, byteCount: Int, json: Bool) -> UploadSpinner {
        guard !json, byteCount >= minimumByteCount, isatty(STDERR_FILENO) == 1 else { return UploadSpinner(task: nil) }
        let line = StatusLine.standardError
        return UploadSpinner(task: Task.detached {
            let frames = ["|", "/", "-", "\\"]
            let started = ContinuousClock.now
            // A quick upload ends before the first frame: nothing flashes on the screen.
            try? await Task.sleep(for: .milliseconds(300))
            var frame = 0
            while !Task.isCancelled {
                let seconds = (ContinuousClock.now - started).components.seconds
                line.show("\(frames[frame % frames.count]) \(label)… \(seconds) s")
                frame += 1
                try? await Task.sleep(for: .milliseconds(120))
            }
            line.clear()
        })
    }

    /// Stops the spinner and erases its line before anything else is printed.
    func stop() async {
        task?.cancel()
        await task?.value
    }
}

import Foundation
import RiderKit
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress bar on standard error while an upload runs, erased when it ends:
/// `Uploading me.jpg [##########..........]  50%  2.1 MiB of 4.2 MiB` (ASCII only, so it reads
/// the same in any locale and font).
///
/// It moves with what the HTTP transport reports as handed to the connection
/// (``UploadProgress``), not with a guess; a transport that cannot tell leaves it at 0 %, and a
/// request sent again after the session was renewed starts it again.
final class UploadProgressBar: Sendable {
    /// Files smaller than this upload in a blink on any link worth the name: no bar.
    static let minimumByteCount = 256 * 1024

    private let label: String
    private let line: StatusLine?
    /// The percentage last drawn: the bar is redrawn when it changes, not for every slice.
    private let drawn = Mutex<Int?>(nil)
    /// The last progress reported, for what Ctrl-C says (`nil`: none reported, or no bar).
    private let reported = Mutex<UploadProgress?>(nil)

    /// A bar that draws when it can help: a large file, standard error a terminal, and no
    /// `--json` (whose errors go to standard error as JSON, which a bar would corrupt).
    /// - Parameters:
    ///   - label: what is being sent, such as `Uploading me.jpg`.
    ///   - byteCount: the upload's size.
    ///   - json: whether `--json` was given.
    init(_ label: String, byteCount: Int, json: Bool) {
        self.label = label
        let wanted = !json && byteCount >= Self.minimumByteCount && isatty(STDERR_FILENO) == 1
        line = wanted ? StatusLine.standardError : nil
    }

    /// What to give the upload as its `progress`; `nil` when the bar does not draw.
    var observer: (@Sendable (UploadProgress) -> Void)? {
        guard line != nil else { return nil }
        return { [self] progress in self.show(progress) }
    }

    private func show(_ progress: UploadProgress) {
        reported.withLock { $0 = progress }
        guard let line else { return }
        let percent = Self.percent(progress)
        drawn.withLock { drawn in
            guard drawn != percent else { return }
            drawn = percent
            line.show(Self.render(label, progress))
        }
    }

    /// Erases the bar before anything else is printed.
    func stop() {
        line?.clear()
    }

    /// What Ctrl-C during the upload says, erasing the bar first: whether the picture can have
    /// reached the server, as far as the transport reported what it sent.
    var interruptedUpload: String {
        stop()
        let progress = reported.withLock { $0 }
        let sent = progress.map { $0.totalBytes > 0 && $0.sentBytes >= $0.totalBytes }
        switch sent {
        case true?:
            return "cancelled after the whole picture was sent, before the server answered: your avatar may have "
                + "changed. `rider profile show` tells."
        case false? where progress?.sentBytes == 0:
            return "cancelled before any of the picture was sent: your avatar is unchanged."
        case false?:
            return "cancelled part-way through the upload: the server got only part of the picture, so your avatar "
                + "should be unchanged. `rider profile show` tells."
        case nil:
            return "cancelled during the upload: your avatar may have changed. `rider profile show` tells."
        }
    }

    /// Whole percent, rounded down: what the bar prints, and what decides when it is redrawn.
    private static func percent(_ progress: UploadProgress) -> Int {
        Int((progress.fractionCompleted * 100).rounded(.down))
    }

    /// The bar's text for `progress`: the label, `width` cells, the percentage (rounded down, so
    /// 100 % means all of it) and the bytes sent.
    static func render(_ label: String, _ progress: UploadProgress, width: Int = 20) -> String {
        let filled = Int((progress.fractionCompleted * Double(width)).rounded(.down))
        let percent = Self.percent(progress)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percentText = String(repeating: " ", count: 3 - String(percent).count) + "\(percent)%"
        let line = "\(label) [\(bar)] \(percentText)  \(ByteCount(progress.sentBytes)) of \(ByteCount(progress.totalBytes))"
        // All of it sent: what is left is the server's part (storing, resizing), however long.
        let sentAll = progress.totalBytes > 0 && progress.sentBytes >= progress.totalBytes
        return sentAll ? line + "; waiting for the server..." : line
    }
}

import RiderDomain
import Synchronization

/// Collects the upload progress a transport reports, from whichever thread it reports on.
public final class UploadProgressRecorder: Sendable {
    private let state = Mutex<[UploadProgress]>([])

    public init() {}

    /// Records one report; pass it as the upload's `progress` closure.
    public func append(_ progress: UploadProgress) { state.withLock { $0.append(progress) } }

    /// Every report so far, in order.
    public var values: [UploadProgress] { state.withLock { $0 } }
}

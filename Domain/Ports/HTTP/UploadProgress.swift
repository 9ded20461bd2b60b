/// How much of a request body has been handed to the network: what an upload's progress bar
/// shows.
///
/// Adapters of `HTTPTransport` that can tell report it to ``observer`` while they send a body;
/// those that cannot stay silent. A request sent again (after a session renewal, say) reports
/// from zero again.
public struct UploadProgress: Hashable, Sendable {
    /// Bytes of the body written to the connection so far.
    public var sentBytes: Int
    /// The body's size.
    public var totalBytes: Int

    public init(sentBytes: Int, totalBytes: Int) {
        self.sentBytes = sentBytes
        self.totalBytes = totalBytes
    }

    /// From 0 to 1; 1 for an empty body.
    public var fractionCompleted: Double {
        totalBytes > 0 ? min(1, max(0, Double(sentBytes) / Double(totalBytes))) : 1
    }

    /// Who hears of the bodies sent by the current task, if anyone.
    ///
    /// A task-local value rather than a parameter of `HTTPTransport.send(_:)`, so it crosses the
    /// use case, the session engine and every transport decorator (logging, recording,
    /// re-authentication) without a change to the port that each adapter and test double would
    /// have to carry. Set it around one call, as `UploadAvatar` does when given a `progress`
    /// closure: `UploadProgress.$observer.withValue({ print($0) }) { try await … }`. The closure
    /// is called from the adapter's own threads, in order, and must not block.
    @TaskLocal public static var observer: (@Sendable (UploadProgress) -> Void)?
}

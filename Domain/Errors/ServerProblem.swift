import Foundation

/// The problem details (RFC 9457) a server sent with a refusal, as ``RiderError/problem``.
///
/// Text from a server is untrusted: each field is cut to one line of at most 200 characters
/// with control characters removed before it gets here, and a terminal must still be shown it
/// through RiderKit's escaping (the CLI does).
public struct ServerProblem: Hashable, Sendable {
    /// A URI naming the kind of problem, when the server gave one.
    public let type: String?
    /// A short summary of the kind of problem.
    public let title: String?
    /// The HTTP status the server repeated in the body.
    public let status: Int?
    /// What went wrong in this case.
    public let detail: String?

    package init(type: String?, title: String?, status: Int?, detail: String?) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
    }
}

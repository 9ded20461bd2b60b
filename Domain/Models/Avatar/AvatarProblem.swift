import Foundation

/// Why a picture cannot become the rider's avatar.
public enum AvatarProblem: Hashable, Sendable {
    /// The file holds no bytes.
    case empty
    /// The picture is larger than the limit; `limit` is `nil` when the server refused it
    /// without saying its own.
    case tooLarge(byteCount: Int, limit: Int?)
    /// Not a JPEG or PNG image, judged by its content rather than its name.
    case unsupportedFormat
    /// The file could not be read; the text names the file and the reason.
    case unreadable(String)

    /// What is wrong and what to do, as the end of a sentence ("The avatar …").
    public var message: String {
        switch self {
        case .empty:
            return "is an empty file; choose a JPEG or PNG image"
        case .tooLarge(let byteCount, let limit?):
            var (size, allowed) = ("\(ByteCount(byteCount))", "\(ByteCount(limit))")
            // Just over the limit both round to the same figure: then say it in bytes.
            if size == allowed { (size, allowed) = ("\(byteCount) bytes", "\(limit) bytes") }
            return "is \(size), more than the \(allowed) allowed; choose a smaller image"
        case .tooLarge(let byteCount, nil):
            return "is \(ByteCount(byteCount)), more than the server accepts; choose a smaller image"
        case .unsupportedFormat:
            return "must be a JPEG or PNG image, and this file's content is neither (its name does not count)"
        case .unreadable(let what):
            return "cannot be read: \(what)"
        }
    }
}

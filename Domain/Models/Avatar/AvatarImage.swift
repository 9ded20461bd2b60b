import Foundation

/// A picture for the rider profile, checked before anything is sent: not empty, within the size
/// limit, and a JPEG or PNG judged by its first bytes.
///
/// Built through ``init(data:filename:maximumByteCount:)``, so an `AvatarImage` is always one the
/// server can be asked to take.
package struct AvatarImage: Hashable, Sendable, CustomStringConvertible {
    /// 5 MiB, the reference server's limit too.
    package static let defaultMaximumByteCount = 5 * 1024 * 1024

    /// The file's bytes, unchanged.
    package let data: Data
    /// What the bytes are, from their signature.
    package let format: ImageFormat
    /// The name the file had, as given (the upload sanitises it).
    package let filename: String

    /// - Parameters:
    ///   - data: the image file's content.
    ///   - filename: the file's name, sent along for the server's records.
    ///   - maximumByteCount: the largest image accepted.
    /// - Throws: `RiderError.invalidAvatar(_:)` with ``AvatarProblem/empty``,
    ///   ``AvatarProblem/tooLarge(byteCount:limit:)`` or ``AvatarProblem/unsupportedFormat``.
    package init(data: Data, filename: String, maximumByteCount: Int = defaultMaximumByteCount) throws {
        try Self.checkSize(data.count, maximumByteCount: maximumByteCount)
        guard let format = ImageFormat(sniffing: data) else { throw RiderError.invalidAvatar(.unsupportedFormat) }
        self.data = data
        self.format = format
        self.filename = filename
    }

    /// Checks a size alone, so a caller can refuse a large file before reading it into memory.
    /// - Throws: `RiderError.invalidAvatar(_:)` with ``AvatarProblem/empty`` or
    ///   ``AvatarProblem/tooLarge(byteCount:limit:)``.
    package static func checkSize(_ byteCount: Int, maximumByteCount: Int = defaultMaximumByteCount) throws {
        guard byteCount > 0 else { throw RiderError.invalidAvatar(.empty) }
        guard byteCount <= maximumByteCount else {
            throw RiderError.invalidAvatar(.tooLarge(byteCount: byteCount, limit: maximumByteCount))
        }
    }

    /// The format and size, never the bytes.
    package var description: String { "AvatarImage(\(format.rawValue), \(data.count) bytes)" }
}

import Foundation
import RiderKit
#if canImport(Glibc)
import Glibc
// In the build linked with --static-swift-stdlib (make install's) `stat` comes through
// CoreFoundation's copy of <sys/stat.h>, and MemberImportVisibility wants that module imported.
import CoreFoundation
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the picture `rider profile avatar` uploads — the I/O the `UploadAvatar` use case leaves
/// to its caller.
///
/// A regular file is measured before it is read, so a 2 GB video given by mistake is refused at
/// once instead of filling memory; anything without a size (a pipe, `/dev/stdin`) is read up to
/// one byte past the limit, never further.
enum AvatarFile {
    /// - Parameters:
    ///   - path: the file, as typed.
    ///   - checkSize: the upload's own size check (``RiderKit/Profile/checkAvatarSize(_:)``).
    ///   - maximumByteCount: the same limit, to stop reading past it.
    /// - Returns: the file's content.
    /// - Throws: `RiderError.invalidAvatar(_:)`: ``AvatarProblem/unreadable(_:)`` for a file
    ///   that is missing, a folder or not readable; ``AvatarProblem/empty`` and
    ///   ``AvatarProblem/tooLarge(byteCount:limit:)`` from `checkSize`.
    static func contents(of path: String, checkSize: (Int) throws -> Void, maximumByteCount: Int) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable(path, errno: errno) }
        // POSIX file type bits (S_IFMT, S_IFDIR, S_IFREG), spelled out because the C macros do
        // not import into Swift the same way on every platform.
        let type = UInt32(status.st_mode) & 0o170000
        guard type != 0o040000 else { throw RiderError.invalidAvatar(.unreadable("\(path) is a folder, not a file")) }
        if type == 0o100000 { try checkSize(Int(status.st_size)) }

        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= maximumByteCount {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable(path, errno: errno)
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        // A pipe has no size until read, and a file may have grown since it was measured.
        try checkSize(data.count)
        return data
    }

    private static func unreadable(_ path: String, errno code: Int32) -> RiderError {
        .invalidAvatar(.unreadable("\(path): \(String(cString: strerror(code)).lowercased())"))
    }
}

import Foundation
import RiderDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``RefreshLock`` shared by every process on the machine: an advisory `flock(2)` on a 0600
/// file next to the vault.
///
/// The kernel drops the lock when its holder exits, so a crashed `rider` never leaves it stuck.
/// Waiting polls with a non-blocking `flock` and `Task.sleep`, so no thread of the cooperative
/// pool is blocked and cancellation works.
public struct FileRefreshLock: RefreshLock {
    public let file: URL
    /// How long to wait for another process's refresh before giving up.
    public let timeout: TimeInterval

    public init(file: URL, timeout: TimeInterval = 30) {
        self.file = file
        self.timeout = timeout
    }

    /// The default lock file for `origin` under `directories`: beside the session it protects.
    package static func defaultFile(forOrigin origin: String, in directories: XDGDirectories) -> URL {
        directories.stateFolder(forOrigin: origin).appendingPathComponent("refresh.lock")
    }

    /// - Throws: ``RiderError/storage(_:underlying:)`` when the lock file cannot be opened or another process
    ///   holds the lock longer than ``timeout``; `CancellationError`; what `body` throws.
    public func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        do {
            try PrivateFile.makeDirectory(file.deletingLastPathComponent())
        } catch {
            throw error.riderError
        }
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw RiderError.storage("cannot open the refresh lock \(file.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }  // closing releases the lock too
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw RiderError.storage("cannot lock \(file.path): \(String(cString: strerror(errno)))")
            }
            guard Date() < deadline else {
                throw RiderError.storage("another process has held the refresh lock \(file.path) for over \(Int(timeout)) s")
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory `flock(2)` lock on a small side file, so processes sharing a vault file take
/// turns: readers share, a writer is alone.
///
/// The lock is on a separate file because the vault file itself is replaced by rename on every
/// write, and a lock on the old inode would not exclude a process that opened the new one.
enum FileLock {
    /// Runs `body` holding the lock on `lockFile` (created 0600 when missing).
    static func withLock<Value>(
        _ lockFile: URL, exclusive: Bool, _ body: () throws(VaultError) -> Value
    ) throws(VaultError) -> Value {
        try PrivateFile.makeDirectory(lockFile.deletingLastPathComponent())
        let descriptor = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .io(file: lockFile.path, reason: "cannot open the lock file: \(PrivateFile.errnoText())")
        }
        defer { close(descriptor) }
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else {
                throw .io(file: lockFile.path, reason: "cannot lock: \(PrivateFile.errnoText())")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}

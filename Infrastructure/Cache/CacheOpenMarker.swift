import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells an open after an unclean shutdown from an ordinary one, so the full integrity check
/// (`PRAGMA quick_check`, which reads every page) runs only when it can find something.
///
/// Every process that has the cache open holds a shared `flock(2)` on a side file
/// (`users.sqlite-open`); the last one to close removes it. A side file that is there when a
/// process opens the cache, and that nobody holds a lock on, was left by a process that ended
/// without closing (a crash, a kill, a power cut): only then is the file checked. The kernel
/// drops a dead process's locks, so a crashed holder never keeps the check from running. A race
/// between the last close and a new open can at worst skip one check: damage is then found, as
/// always, by the first query that reads a damaged page (`SQLITE_CORRUPT`).
final class CacheOpenMarker: @unchecked Sendable {
    private var descriptor: Int32
    private let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// The side file of `database`.
    static func path(for database: URL) -> String { database.path + "-open" }

    /// Takes the marker for `database`.
    /// - Returns: the marker to ``release()`` on close, and whether the last process to use the
    ///   file ended without closing it. `nil` marker when the side file cannot be made (a
    ///   read-only folder): the cache still opens, without the unclean-shutdown check.
    static func acquire(for database: URL) -> (marker: CacheOpenMarker?, wasUnclean: Bool) {
        let path = path(for: database)
        var created = true
        var descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == EEXIST {
            created = false
            descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        }
        guard descriptor >= 0 else { return (nil, false) }
        var wasUnclean = false
        if !created {
            // Nobody holds it: whoever left it did not close. Someone does: they are still using
            // the file, which is ordinary.
            if lockRetrying(descriptor, LOCK_EX | LOCK_NB) {
                wasUnclean = true
            }
        }
        // Shared from here on (a blocking wait only while another process holds it exclusively
        // for the instant of its own check or close).
        guard lockRetrying(descriptor, LOCK_SH) else {
            _ = close(descriptor)
            return (nil, wasUnclean)
        }
        return (CacheOpenMarker(descriptor: descriptor, path: path), wasUnclean)
    }

    /// Lets go of the marker; the last process removes the side file, which is what a clean
    /// shutdown looks like to the next open.
    func release() {
        guard descriptor >= 0 else { return }
        if Self.lockRetrying(descriptor, LOCK_EX | LOCK_NB) {
            _ = unlink(path)
        }
        _ = close(descriptor)
        descriptor = -1
    }

    deinit { release() }

    private static func lockRetrying(_ descriptor: Int32, _ operation: Int32) -> Bool {
        while flock(descriptor, operation) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }
}

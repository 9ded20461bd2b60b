import Foundation
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Reads and writes files only their owner may see (folders it creates 0700, files 0600), atomically.
///
/// Used for anything holding a secret: a reader never sees half a file, and a file that others
/// could read, or a folder others could change, is refused rather than trusted or repaired, the
/// way ssh treats its keys (``PathSafety`` has the rules).
package enum PrivateFile {
    /// Creates `directory` and any missing parents with mode 0700; folders that already exist
    /// are checked, never changed (``PathSafety``).
    /// - Throws: ``VaultError/permissionsTooOpen(file:mode:)`` or ``VaultError/notOwned(file:owner:user:)``
    ///   for an existing folder others could change; ``VaultError/io(file:reason:)`` when a folder
    ///   cannot be examined or created.
    package static func makeDirectory(_ directory: URL) throws(VaultError) {
        let path = directory.standardizedFileURL.path
        var existing = path
        var missing: [String] = []
        while true {
            var info = stat()
            if stat(existing, &info) == 0 { break }
            guard errno == ENOENT, existing != "/" else {
                throw .io(file: existing, reason: "cannot examine the folder: \(errnoText())")
            }
            missing.append(existing)
            existing = PathSafety.parent(of: existing)
        }
        if missing.isEmpty {
            try PathSafety.checkFolder(existing)
            return
        }
        try PathSafety.checkAncestors(from: existing)
        for folder in missing.reversed() {
            if mkdir(folder, 0o700) == 0 {
                // Only what RiderKit created is given a mode: the umask could have narrowed it oddly.
                guard chmod(folder, 0o700) == 0 else {
                    throw .io(file: folder, reason: "cannot restrict the folder to its owner: \(errnoText())")
                }
            } else if errno == EEXIST {
                // Another process made it in the meantime: it is checked like any existing folder.
                if folder == path { try PathSafety.checkFolder(folder) } else { try PathSafety.checkAncestors(from: folder) }
            } else {
                throw .io(file: folder, reason: "cannot create the folder: \(errnoText())")
            }
        }
    }

    /// The file's contents, or `nil` when it does not exist.
    /// - Parameter checkingFolder: whether the folder holding the file and those above it are
    ///   checked too (``PathSafety``); the file itself always is.
    /// - Throws: ``VaultError/permissionsTooOpen(file:mode:)`` or ``VaultError/notOwned(file:owner:user:)``
    ///   when others may read or write the file or change its folders; ``VaultError/io(file:reason:)``
    ///   when it cannot be read.
    package static func read(_ file: URL, checkingFolder: Bool = true) throws(VaultError) -> Data? {
        var info = stat()
        guard stat(file.path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .io(file: file.path, reason: errnoText())
        }
        try PathSafety.checkFile(file.path, info)
        if checkingFolder { try PathSafety.checkFolder(file.deletingLastPathComponent().path) }
        do {
            return try Data(contentsOf: file)
        } catch {
            throw .io(file: file.path, reason: reason(error))
        }
    }

    /// Replaces `file` with `data`: written to a temporary file in the same folder, flushed,
    /// renamed over the old one, and the folder flushed, so a crash leaves the old or the new
    /// file, never a partial one.
    package static func write(_ data: Data, to file: URL) throws(VaultError) {
        let directory = file.deletingLastPathComponent()
        try makeDirectory(directory)
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .io(file: directory.path, reason: "cannot write in the folder: \(errnoText())")
        }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, failure == nil {
                guard let base = buffer.baseAddress else { return }
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno != EINTR { failure = errnoText() }
                } else {
                    offset += written
                }
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errnoText() }
        close(descriptor)
        if failure == nil, rename(temporary.path, file.path) != 0 { failure = errnoText() }
        if let failure {
            unlink(temporary.path)
            throw .io(file: file.path, reason: failure)
        }
        syncDirectory(directory)
    }

    /// Removes temporary files a crashed ``write(_:to:)`` of `file` left behind. Call only while
    /// holding the lock that every writer of `file` takes, so no live write is disturbed.
    static func removeLeftovers(of file: URL) {
        let directory = file.deletingLastPathComponent()
        let prefix = ".\(file.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    /// Removes `file`; a missing file is not an error.
    static func remove(_ file: URL) throws(VaultError) {
        guard unlink(file.path) == 0 || errno == ENOENT else {
            throw .io(file: file.path, reason: "cannot remove it: \(errnoText())")
        }
        syncDirectory(file.deletingLastPathComponent())
    }

    private static func syncDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        // Best effort: the rename is already done; this only makes it survive a power cut.
        _ = fsync(descriptor)
        close(descriptor)
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

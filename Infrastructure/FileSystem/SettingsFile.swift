import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and places a settings file that others may read but no one else may change — the
/// config file, which names the servers a session's tokens go to.
///
/// The rules are ``PathSafety``'s, with root trusted as an owner too (`/etc/rider/config.json`):
/// the file must be a regular file that belongs to the user or root and that no one else may
/// write, and the folder holding it, and those above, must let no one else change them. The
/// folder holding the name is checked before the name is looked at, so a symbolic link is
/// followed only when it sits in a folder nobody else could have planted it in (a dotfile
/// manager's link in `~/.config/rider`); the file it names, and that file's folders, are then
/// checked in turn. Nothing is ever repaired: a refusal says what to change.
package enum SettingsFile {
    /// The file's contents, or `nil` when there is no file.
    /// - Returns: the bytes, and whether users other than its owner may read them.
    /// - Throws: ``VaultError/permissionsTooOpen(file:mode:)`` or ``VaultError/notOwned(file:owner:user:)``
    ///   when someone else could change the file or a folder on the way to it (a folder's path ends
    ///   in `/`); ``VaultError/io(file:reason:)`` when it cannot be read.
    package static func read(_ file: URL) throws(VaultError) -> (data: Data, othersMayRead: Bool)? {
        let path = file.path
        var link = stat()
        guard lstat(path, &link) == 0 else {
            if errno == ENOENT { return nil }
            throw .io(file: path, reason: PrivateFile.errnoText())
        }
        let target = try trustedTarget(of: path, link)
        // O_NOFOLLOW: the name was checked as a file or resolved above; a link swapped in since is
        // refused, not followed. O_NONBLOCK: a FIFO put there must not hang the program.
        let descriptor = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .io(file: target, reason: errno == ELOOP ? "it is a symbolic link" : PrivateFile.errnoText())
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .io(file: target, reason: PrivateFile.errnoText()) }
        try PathSafety.checkSettingsFile(target, info)
        do {
            let data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readToEnd() ?? Data()
            return (data, info.st_mode & 0o044 != 0)
        } catch {
            throw .io(file: target, reason: (error as NSError).localizedDescription)
        }
    }

    /// Where a new version of `file` is to be renamed: `file` itself, or the file its symbolic
    /// link names, each once its folders pass the checks; a missing folder is created 0700.
    /// - Throws: as ``read(_:)``, for the folders and the link.
    package static func replacementTarget(for file: URL) throws(VaultError) -> URL {
        let path = file.path
        let folder = PathSafety.parent(of: path)
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0 else {
            guard errno == ENOENT else {
                throw .io(file: folder, reason: "cannot examine the folder: \(PrivateFile.errnoText())")
            }
            // A folder made now (0700, its ancestors checked) holds nothing anyone else planted.
            try PrivateFile.makeDirectory(URL(fileURLWithPath: folder, isDirectory: true))
            return file
        }
        var link = stat()
        guard lstat(path, &link) == 0 else {
            guard errno == ENOENT else { throw .io(file: path, reason: PrivateFile.errnoText()) }
            try PathSafety.checkFolder(folder, rootMayOwn: true)
            return file
        }
        return URL(fileURLWithPath: try trustedTarget(of: path, link))
    }

    /// `path` when it is not a symbolic link, else the path it resolves to; in either case only
    /// after the folder holding each has passed ``PathSafety``'s checks.
    private static func trustedTarget(of path: String, _ link: stat) throws(VaultError) -> String {
        // The link's own folder first: one someone else may write could hold a link they planted.
        try PathSafety.checkFolder(PathSafety.parent(of: path), rootMayOwn: true)
        guard link.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            throw .io(file: path, reason: "it is a symbolic link that cannot be followed: \(PrivateFile.errnoText())")
        }
        defer { free(resolved) }
        let target = String(cString: resolved)
        try PathSafety.checkFolder(PathSafety.parent(of: target), rootMayOwn: true)
        return target
    }
}

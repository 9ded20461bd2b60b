import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides whether a file, the folder holding it and the folders above are private enough to
/// trust, the way ssh's `StrictModes` does; it never changes a mode or an owner itself.
///
/// - The folder that holds a file must belong to the current user and let no one else write.
/// - Each folder above it, up to the home folder (or up to `/` for a path outside it), must
///   belong to the user or to root and let no one else write, except a root-owned folder with
///   the sticky bit such as `/tmp`: others may write there, but cannot rename or remove a
///   folder that is not theirs.
/// - A file must be a regular file that belongs to the user and that no one else may read or write.
/// - A settings file others may read (the config file, ``SettingsFile``) may also belong to root,
///   as may the folder holding it, but no one else may write either.
///
/// A refusal says what to run (`chmod go-w`, `chmod 600`, `chown`) rather than repairing
/// silently: whoever opened the folder up may have done it on purpose, and tightening `/tmp`
/// would break the machine.
enum PathSafety {
    /// Checks `folder`, which holds (or is about to hold) a private file, and the folders above it.
    /// - Throws: ``VaultError/notOwned(file:owner:user:)``, ``VaultError/permissionsTooOpen(file:mode:)``
    ///   (the folder's path ends in `/`), or ``VaultError/io(file:reason:)`` when it cannot be examined.
    /// - Parameter rootMayOwn: whether the folder may belong to root (a settings file such as
    ///   `/etc/rider/config.json`); private files' folders must be the user's own.
    static func checkFolder(_ folder: String, rootMayOwn: Bool = false) throws(VaultError) {
        try checkChain(from: folder, holdsFile: true, rootMayOwn: rootMayOwn)
    }

    /// Checks the existing folder `folder` and those above it as ancestors of a folder that does
    /// not exist yet (and that RiderKit is about to create).
    static func checkAncestors(from folder: String) throws(VaultError) {
        try checkChain(from: folder, holdsFile: false, rootMayOwn: true)
    }

    /// Checks a file that exists, from its `stat`.
    static func checkFile(_ path: String, _ info: stat) throws(VaultError) {
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .io(file: path, reason: "it is not a regular file")
        }
        let user = geteuid()
        guard info.st_uid == user else {
            throw .notOwned(file: path, owner: userName(info.st_uid), user: userName(user))
        }
        let mode = Int(info.st_mode & 0o777)
        guard mode & 0o077 == 0 else { throw .permissionsTooOpen(file: path, mode: mode) }
    }

    /// Checks a settings file that exists, from its `stat`: others may read it, but it must be a
    /// regular file that belongs to the user or root and that no one else may write.
    static func checkSettingsFile(_ path: String, _ info: stat) throws(VaultError) {
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .io(file: path, reason: "it is not a regular file")
        }
        let user = geteuid()
        guard info.st_uid == user || info.st_uid == 0 else {
            throw .notOwned(file: path, owner: userName(info.st_uid), user: userName(user))
        }
        let mode = Int(info.st_mode & 0o7777)
        guard mode & 0o022 == 0 else { throw .permissionsTooOpen(file: path, mode: mode) }
    }

    /// Checks one folder. The one holding the file must be the user's and closed to others;
    /// folders above may also be root's, and open to others when sticky and root's.
    static func checkFolder(_ path: String, _ info: stat, holdsFile: Bool, rootMayOwn: Bool = false) throws(VaultError) {
        let user = geteuid()
        let mode = info.st_mode
        let othersMayWrite = mode & 0o022 != 0
        let sticky = mode & mode_t(S_ISVTX) != 0
        // A shared folder like /tmp is refused for what it is, before its owner (root) is, so the
        // advice is a folder of one's own inside it rather than a chown of /tmp.
        if holdsFile, othersMayWrite, sticky {
            throw .permissionsTooOpen(file: folderName(path), mode: Int(mode & 0o7777))
        }
        guard info.st_uid == user || ((!holdsFile || rootMayOwn) && info.st_uid == 0) else {
            throw .notOwned(file: folderName(path), owner: userName(info.st_uid), user: userName(user))
        }
        guard !othersMayWrite || (!holdsFile && sticky && info.st_uid == 0) else {
            throw .permissionsTooOpen(file: folderName(path), mode: Int(mode & 0o7777))
        }
    }

    // MARK: The walk

    private static func checkChain(from folder: String, holdsFile: Bool, rootMayOwn: Bool) throws(VaultError) {
        // Symbolic links are followed first, as ssh does: the folders that matter are the real ones.
        guard let resolved = realPath(folder) else {
            throw .io(file: folder, reason: "cannot examine the folder: \(PrivateFile.errnoText())")
        }
        let home = homeFolder().flatMap(realPath)
        var current = resolved
        var holds = holdsFile
        while true {
            var info = stat()
            guard stat(current, &info) == 0 else {
                throw .io(file: current, reason: "cannot examine the folder: \(PrivateFile.errnoText())")
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw .io(file: current, reason: "it is not a folder")
            }
            try checkFolder(current, info, holdsFile: holds, rootMayOwn: rootMayOwn)
            // Above the home folder (or `/`) is the system's business, not this user's.
            if current == home || current == "/" { return }
            current = parent(of: current)
            holds = false
        }
    }

    /// `/a/b` → `/a`, `/a` → `/`.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func folderName(_ path: String) -> String {
        path.hasSuffix("/") ? path : path + "/"
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func homeFolder() -> String? {
        if let home = ProcessInfo.processInfo.environment["HOME"], home.hasPrefix("/") { return home }
        let home = NSHomeDirectory()
        return home.hasPrefix("/") ? home : nil
    }

    /// The account name for `uid`, or the number when the system has none.
    static func userName(_ uid: uid_t) -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = getpwuid_r(uid, &entry, &buffer, buffer.count, &result)
        guard status == 0, let found = result, let name = found.pointee.pw_name else { return String(uid) }
        return String(cString: name)
    }
}

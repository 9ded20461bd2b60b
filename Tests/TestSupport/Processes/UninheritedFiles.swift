import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files and pipes the tests create without handing them to every other test's child processes.
///
/// The test process runs many tests at once, and each starts programs with Foundation's `Process`,
/// which on Linux passes the new program every descriptor that is open at that instant and not
/// marked close-on-exec, while Foundation itself opens files (`Data.write(to:)`) and pipes
/// (`Pipe()`) without that mark. So a program started by one test keeps, for as long as it runs,
/// whatever another test had open at that moment:
/// - a script still being written: the kernel then refuses to run it (`ETXTBSY`, "Text file
///   busy") until that program exits. A `$BROWSER` script refused this way left `rider login`
///   waiting for a browser that never ran — twice in CI;
/// - the write end of a pipe: whoever reads that pipe to its end waits until that program exits.
///
/// What is created here is marked close-on-exec (a script from the start; a pipe the moment it
/// exists, leaving a window of two system calls, as `Process` wants a `Pipe` and makes its own):
/// programs started by the test process do not keep it; the one it is meant for gets it as its
/// standard input or output, which `Process` makes with `dup2` (a copy without the mark).
public enum UninheritedFiles {
    /// Writes `text` to a new file at `url` (replacing one that is there) with `permissions`, as a
    /// script a test runs or hands to rider.
    /// - Throws: `CocoaError(.fileWriteUnknown)` with the system's error when it cannot be created
    ///   or given its mode; what `FileHandle` throws when it cannot be written.
    public static func writeExecutable(_ text: String, to url: URL, permissions: mode_t = 0o700) throws {
        _ = unlink(url.path)
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw failure(url) }
        // Foundation writes it all from here (short writes, EINTR); only opening it was ours to do.
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? file.close() }
        try file.write(contentsOf: Data(text.utf8))
        // The mode given to open(2) is narrowed by the umask; a script must have exactly this one.
        guard fchmod(descriptor, permissions) == 0 else { throw failure(url) }
    }

    /// A pipe whose two ends no program started by the test process keeps by accident.
    public static func pipe() -> Pipe {
        let pipe = Pipe()
        for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            // Only FD_CLOEXEC is a descriptor flag: setting it alone loses nothing.
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        return pipe
    }

    private static func failure(_ url: URL) -> CocoaError {
        let cause = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        return CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: cause])
    }
}

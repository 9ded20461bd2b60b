// `rider`, the front: prints what needs nothing of RiderKit (help, completion scripts, the
// version) and executes `rider-core`, the whole CLI, for everything else.
//
// Why a second executable: `rider-core` links NIO, AsyncHTTPClient, GRDB, swift-crypto, jwt-kit
// and Foundation, and every start pays the loader's relocations and the Swift runtime's
// conformance scans over all of them (docs/performance.md) — about 10 ms before `--help` prints a
// line. This program has no dependency but the C library and is linked as a static executable, so
// it starts in well under a millisecond; handing a command over costs one `execv`.
//
// Its texts (FrontTexts.swift) are generated from rider-core's own command definitions by
// scripts/front-texts.py (`make front-texts`), and FrontTests compares the two programs for every
// command path, so they cannot drift unnoticed. Anything it is not sure of goes to rider-core
// with the same arguments (argv[0] included) and environment: the process, its pid, signals,
// terminal and exit status are then rider-core's own. No secret passes through here; the front
// reads only its arguments, COLUMNS and the terminal's width.
//
// Deliberately plain: C strings and `write`, no `String` arrays or `print`, so nothing on this
// path instantiates generic types the first time or checks a conformance.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One form of arguments the front answers itself, and with which text.
struct FrontEntry: Sendable {
    /// The arguments after `rider`, each followed by a NUL byte ("" for none).
    let arguments: StaticString
    /// The index of the text in ``FrontTexts/text(_:)``.
    let text: Int
    /// Help, wrapped at ``FrontTexts/width``; completion scripts and the version are not wrapped.
    let isHelp: Bool
}

/// Whether the arguments after `rider` are exactly those of `entry`: each argument followed by a
/// NUL byte.
func argumentsMatch(_ entry: StaticString) -> Bool {
    let argc = Int(CommandLine.argc)
    return entry.withUTF8Buffer { bytes -> Bool in
        guard let base = bytes.baseAddress else { return argc == 1 }
        var offset = 0
        var index = 1
        while offset < bytes.count {
            guard index < argc, let argument = CommandLine.unsafeArgv[index] else { return false }
            let length = strlen(argument)
            guard offset + length < bytes.count, bytes[offset + length] == 0,
                  memcmp(base + offset, argument, length) == 0 else { return false }
            offset += length + 1
            index += 1
        }
        return index == argc
    }
}

/// Whether rider-core would wrap help at another width than the texts were made for: ArgumentParser
/// takes COLUMNS when set, else the width of a terminal on stdout, else 80.
func helpWidthDiffers() -> Bool {
    if let columns = getenv("COLUMNS"), columns.pointee != 0 { return true }
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return false }
    return Int(size.ws_col) != FrontTexts.width
}

/// Writes a whole text to stdout and exits 0, as rider-core does after help.
func serve(_ text: StaticString) -> Never {
    // A closed pipe (`rider --help | head -1`) ends the write, quietly. Only here: an ignored
    // signal would be inherited by rider-core through `execv`.
    signal(SIGPIPE, SIG_IGN)
    text.withUTF8Buffer { bytes in
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(STDOUT_FILENO, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
    }
    exit(0)
}

/// One line on stderr, in rider's own error format, and the exit status.
func fail(_ message: String, status: Int32) -> Never {
    let line = "rider: error: " + message + "\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(status)
}

/// The folder holding this executable, from /proc/self/exe (so a symbolic link to `rider` in
/// some other folder still finds rider-core beside the real file), else from argv[0].
func ownFolder() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
    let path: String
    if length > 0 {
        path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    } else if let first = CommandLine.unsafeArgv[0], strchr(first, 0x2F) != nil {
        path = String(cString: first)
    } else {
        return nil
    }
    guard let slash = path.lastIndex(of: "/") else { return nil }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// Replaces this process with rider-core, found beside the front (a build folder) or in
/// `../libexec/rider/` (an installed tree: `make install`).
func runCore() -> Never {
    guard let folder = ownFolder() else {
        fail("cannot find rider-core: /proc/self/exe is unreadable and rider was not run by its path", status: 127)
    }
    let candidates = [folder + "/rider-core", folder + "/../libexec/rider/rider-core"]
    for candidate in candidates where access(candidate, X_OK) == 0 {
        execv(candidate, CommandLine.unsafeArgv)
        let error = errno  // before anything else can change it
        fail("cannot run \(candidate): \(String(cString: strerror(error)))", status: error == ENOENT ? 127 : 126)
    }
    fail("rider-core is missing (looked for \(candidates[0]) and \(candidates[1])); reinstall rider", status: 127)
}

for entry in FrontTexts.entries where argumentsMatch(entry.arguments) {
    if entry.isHelp && helpWidthDiffers() { break }
    serve(FrontTexts.text(entry.text))
}
runCore()

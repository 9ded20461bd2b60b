import Foundation
import RiderDomain

/// Opens pages the way Linux command-line tools do, where the person is: `$BROWSER` when it is
/// set, run with the address as its one argument (as `xdg-open` and `gh` do); inside WSL the
/// Windows browser, through `wslview` or else `explorer.exe` over the WSL interop; else
/// `xdg-open` when a graphical session is there to show it; otherwise nothing, and the caller
/// prints the address and ``choice`` says why.
///
/// The address is handed over as an argument, never spliced into a shell command, so a hostile
/// address cannot run anything; only http(s) addresses are opened at all. The browser starts
/// without any `RIDER_*` variable and without any of rider's open files: it may run long after the
/// sign-in, and has no use for the vault passphrase, the client secret, rider's connections or
/// anything else rider was configured with.
///
/// The browser half of ``LoopbackBrowserUserAgent``.
package struct SystemBrowserOpener: Sendable {
    /// How pages are opened here, and why.
    package enum Choice: Sendable, Equatable, CustomStringConvertible {
        /// `$BROWSER`, as set.
        case browserVariable(String)
        /// The Windows browser from inside WSL, through this program (`wslview`, `explorer.exe`).
        case windows(String)
        /// `xdg-open` in a graphical session; the variable that says there is one.
        case xdgOpen(String, session: String)
        /// Nothing can be opened here, for this reason.
        case none(String)

        package var description: String {
            switch self {
            case .browserVariable(let command): "$BROWSER (\(command))"
            case .windows(let program): "the Windows browser through \(program) (WSL)"
            case .xdgOpen(let program, let session): "\(program) (a graphical session: \(session) is set)"
            case .none(let why): "none: \(why)"
            }
        }
    }

    private let environment: [String: String]
    /// Where `version` and `sys/fs/binfmt_misc/WSLInterop` are read: `/proc` but in tests.
    private let procRoot: URL

    /// - Parameters:
    ///   - environment: where `BROWSER`, `DISPLAY`, `WAYLAND_DISPLAY`, `WSL_DISTRO_NAME` and
    ///     `PATH` are read.
    ///   - procRoot: the proc file system WSL is recognised by.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment,
                 procRoot: URL = URL(fileURLWithPath: "/proc")) {
        self.environment = environment
        self.procRoot = procRoot
    }

    /// Asks for `url` to be shown.
    /// - Returns: whether a browser was started; `false` when ``choice`` is `.none`, and for an
    ///   address that is not http(s).
    /// - Throws: `RiderError.invalidConfiguration(_:)` when `BROWSER` is set but cannot be started.
    package func open(_ url: URL) async throws -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else { return false }
        switch choice {
        case .browserVariable(let browser):
            // `$BROWSER` may name a program with options ("firefox --new-window"): the shell splits
            // it, and the address arrives as "$1", one argument, unexpanded. The braces and the
            // line break keep the `&` on the whole of it, whatever `;`, `|` or `#` it holds.
            let shell: pid_t
            do {
                shell = try spawn("/bin/sh", ["sh", "-c", "{ \(browser) \"$1\"\n} &", "sh", url.absoluteString])
            } catch {
                throw RiderError.invalidConfiguration("BROWSER (\(browser)) cannot be started", underlying: error)
            }
            // The shell only starts the browser in the background and exits: a wait of a
            // millisecond or two; an exit status says it could not even read the command.
            let status = Self.reap(shell)
            let exited = status & 0x7f == 0, code = (status >> 8) & 0xff
            guard !exited || code == 0 else {
                throw RiderError.invalidConfiguration("BROWSER (\(browser)) cannot be started: the shell ended with "
                    + "status \(code) reading it")
            }
            return true
        case .windows(let program), .xdgOpen(let program, _):
            // Run directly, so a program that cannot be executed here (explorer.exe with the WSL
            // interop off) is known at once; reaped when it exits (they hand over and exit).
            guard let pid = try? spawn(program, [program, url.absoluteString]) else { return false }
            Thread.detachNewThread { _ = Self.reap(pid) }
            return true
        case .none:
            return false
        }
    }

    /// Whether a page would be shown (``choice`` is not `.none`). `rider login` picks the browser
    /// sign-in over the device code by it.
    package var canOpenPages: Bool {
        if case .none = choice { return false }
        return true
    }

    /// How a page would be opened here, in this order: `$BROWSER`; inside WSL, `wslview`, else
    /// `explorer.exe` (not `cmd.exe /c start`, whose parser would take the `&` of a query as the
    /// end of its command); `xdg-open` in a graphical session; else nothing, saying why.
    package var choice: Choice {
        if let browser = environment["BROWSER"], !browser.trimmingCharacters(in: .whitespaces).isEmpty {
            return .browserVariable(browser)
        }
        let wsl = isWSL
        if wsl, let program = executable(named: "wslview") ?? executable(named: "explorer.exe")
            ?? ["/mnt/c/Windows/explorer.exe"].first(where: FileManager.default.isExecutableFile(atPath:)) {
            return .windows(program)
        }
        let session = ["WAYLAND_DISPLAY", "DISPLAY"].first { !(environment[$0] ?? "").isEmpty }
        if let session, let program = executable(named: "xdg-open") { return .xdgOpen(program, session: session) }
        if wsl {
            return .none("this is WSL, but neither wslview nor explorer.exe can be run (install wslu, or turn the "
                + "WSL interop on); set BROWSER to choose a browser")
        }
        if let session { return .none("\(session) is set, but xdg-open is not installed; set BROWSER to choose a browser") }
        return .none("no graphical session (DISPLAY and WAYLAND_DISPLAY are unset), not WSL, and BROWSER is unset")
    }

    /// Whether this is Linux inside WSL: its interop is registered with the kernel, the
    /// distribution's name is in the environment, or the kernel says it was built by Microsoft.
    package var isWSL: Bool {
        if FileManager.default.fileExists(atPath: procRoot.appendingPathComponent("sys/fs/binfmt_misc/WSLInterop").path) {
            return true
        }
        if !(environment["WSL_DISTRO_NAME"] ?? "").isEmpty { return true }
        let version = (try? String(contentsOf: procRoot.appendingPathComponent("version"), encoding: .utf8)) ?? ""
        return version.lowercased().contains("microsoft")
    }

    /// Starts `path` with `arguments` (the first is its name) in a process group of its own, so
    /// Ctrl-C on rider does not reach it, and with nothing else of rider's but the environment.
    ///
    /// /dev/null is its standard input and outputs, and every other descriptor is closed in it:
    /// rider's sockets, pipes and lock files would otherwise stay open in a browser that runs long
    /// after rider (Foundation's `Process` hands on all of them). Every signal has its default
    /// action and none is blocked: rider ignores SIGPIPE, a browser's scripts must not. (A
    /// `$BROWSER` command is started by a shell in the background, and so ignores SIGINT and
    /// SIGQUIT, as a shell's background job does.)
    /// - Returns: the child's process id; the caller reaps it.
    /// - Throws: `POSIXError` when it cannot be started, executing it included.
    private func spawn(_ path: String, _ arguments: [String]) throws -> pid_t {
        let environment = Self.browserEnvironment(environment).map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        for descriptor in Self.openDescriptors() where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return pid
    }

    /// Waits for the child `pid` to end and returns its wait status (0 when something else of the
    /// program's reaped it already: ECHILD).
    private static func reap(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status
    }

    /// The descriptors open in this process now, to be closed in the child. Listing them (rather
    /// than closing every number up to the limit) keeps that to a handful of calls. One another
    /// thread opens between the listing and the start is not closed, unless it is close-on-exec
    /// (NIO's and SQLite's are); glibc's `posix_spawn_file_actions_addclosefrom_np`, which would
    /// close those too, is not visible to Swift here.
    private static func openDescriptors() -> [Int32] {
        if let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            return names.compactMap { Int32($0) }
        }
        return Array(3..<Int32(clamping: max(3, min(sysconf(Int32(_SC_OPEN_MAX)), 1024))))
    }

    /// `environment` without rider's own variables. Every `RIDER_*` goes, not only the ones
    /// known to hold secrets today (`RIDER_VAULT_PASSPHRASE`, `RIDER_CLIENT_SECRET`): none of them
    /// means anything to a browser, and a secret added later is then left out without a thought.
    private static func browserEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.filter { !$0.key.hasPrefix("RIDER_") }
    }

    private func executable(named name: String) -> String? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

import Foundation

/// `rider` on a real pseudo-terminal: a detached tmux session on a private tmux server, driven
/// like a person would (read the screen, type a line). For the paths that only run on a TTY.
struct TerminalSession {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let socket = "rider-e2e-\(UUID().uuidString)"
    private let name = "rider"
    /// The private tmux server's process, ended by ``stop()``.
    private var serverPID: pid_t = 0

    /// Starts `command` (run by the shell) with `environment` in a 120×30 terminal. The shell line
    /// ends by printing `EXIT=<status>` and then waits, so the screen can still be read.
    static func start(_ command: String, environment: [String: String]) throws -> TerminalSession {
        var session = TerminalSession()
        var arguments = ["new-session", "-d", "-s", session.name, "-x", "120", "-y", "30"]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments.append("\(command); echo EXIT=$?; sleep 600")
        try session.tmux(arguments)
        let pid = try session.tmux(["display-message", "-p", "-t", session.name, "#{pid}"])
        session.serverPID = pid_t(pid.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return session
    }

    /// What the terminal shows now.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", name])
    }

    /// Waits until the screen contains `text` (a hang detector: fails after `timeout`).
    @discardableResult
    func waitFor(_ text: String, timeout: Duration = .seconds(60)) async throws -> String {
        try await waitUntil("showed \(text.debugDescription)", timeout: timeout) { $0.contains(text) }
    }

    /// Waits until what the screen shows satisfies `condition`, and returns it; after `timeout`
    /// fails saying the terminal never `what` and what it shows.
    @discardableResult
    func waitUntil(_ what: String, timeout: Duration = .seconds(60),
                   _ condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let shown = try screen()
            if condition(shown) { return shown }
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "the terminal never \(what); it shows:\n\(shown)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Types `line` and Enter.
    func type(_ line: String) throws {
        try tmux(["send-keys", "-t", name, "-l", line])
        try tmux(["send-keys", "-t", name, "Enter"])
    }

    /// Presses a key tmux names (`C-c` for Ctrl-C), as a person would.
    func press(_ key: String) throws {
        try tmux(["send-keys", "-t", name, key])
    }

    /// Ends the session and its private tmux server. `kill-server` alone was seen to leave the
    /// server running here, so it is also ended by its pid.
    func stop() {
        _ = try? tmux(["kill-server"])
        if serverPID > 0 { kill(serverPID, SIGKILL) }
    }

    /// Runs one tmux command with `posix_spawn` and `waitpid`: Foundation's `Process` never
    /// sees `new-session` exit on Linux (the tmux server it forks keeps running) and would wait
    /// forever. Output goes to a file, not a pipe, for the same reason.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (["/usr/bin/tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        let environment: [String] = ["TERM=xterm-256color", "PATH=/usr/bin:/bin"]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, envp)
        guard spawned == 0 else { throw Failure(description: "cannot start tmux (is it installed?): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
        guard status == 0 else {
            throw Failure(description: "tmux \(arguments.first ?? "") failed (wait status \(status)): \(text)")
        }
        return text
    }
}

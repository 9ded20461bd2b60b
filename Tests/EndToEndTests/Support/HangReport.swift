import Foundation
import Synchronization

/// What a child process that seems stuck is doing: every thread's stack, read with gdb, and the
/// programs it started, for the failure message of a test that gave up waiting on it. A hang seen
/// once in CI and never here can then be read from the log instead of guessed at.
enum HangReport {
    /// Holds the process id `RiderProcess` reports once the child runs.
    final class ProcessID: Sendable {
        private let value = Mutex<Int32?>(nil)
        var current: Int32? { value.withLock { $0 } }
        func set(_ pid: Int32) { value.withLock { $0 = pid } }
    }

    /// The stacks of `pid`'s threads (the innermost frames of each, shortened), or why none could
    /// be read. Attaching stops the process for a few seconds; it goes on afterwards.
    static func stacks(of pid: Int32?, scratch: URL) async -> String {
        guard let pid else { return "no stacks: the process never started" }
        let gdb = URL(fileURLWithPath: "/usr/bin/gdb")
        guard FileManager.default.isExecutableFile(atPath: gdb.path) else { return "no stacks: gdb is not installed" }
        guard let read = try? await RiderProcess.run(
            gdb, ["-p", String(pid), "-batch", "-nx", "-ex", "set pagination off", "-ex", "thread apply all bt 30"],
            environment: ["PATH": "/usr/bin:/bin"], stdin: nil, scratch: scratch, timeout: .seconds(60)) else {
            return "no stacks: gdb could not be started"
        }
        // Thread headers and frames only, each frame cut to its function and place.
        let lines = read.stdout.split(separator: "\n").filter { $0.hasPrefix("Thread ") || $0.hasPrefix("#") }
            .map { $0.count > 220 ? $0.prefix(220) + "…" : $0 }
        return lines.isEmpty ? "no stacks: gdb said \(read.stderr.suffix(500))" : "stacks of \(pid):\n" + lines.joined(separator: "\n")
    }

    /// The processes `pid` started that are still there (running, or exited and not yet reaped),
    /// and any other whose command line mentions `text` (a browser rider started is soon
    /// init's child), one line each: process id, state letter as `ps` shows it, command line.
    static func children(of pid: Int32?, orMentioning text: String) -> String {
        guard let pid else { return "no children: the process never started" }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let lines = entries.compactMap { entry -> String? in
            guard Int32(entry) != nil,
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After the command's name in parentheses: state, then the parent's id.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, Int32(entry) != pid else { return nil }
            let arguments = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline"))) ?? Data()
            let command = arguments.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
            guard Int32(fields[1]) == pid || command.contains(text) else { return nil }
            return "\(entry) \(fields[0]) \(command.isEmpty ? "(exited)" : command)"
        }
        return lines.isEmpty ? "no children of \(pid), nothing else mentions \(text)"
            : "children of \(pid), and what mentions \(text):\n" + lines.joined(separator: "\n")
    }
}

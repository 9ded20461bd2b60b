import Foundation

/// Runs a program to completion and times it, start to exit, as a shell would.
///
/// Timed runs use `posix_spawn` directly: Foundation's `Process` on Linux adds tens of
/// milliseconds of its own per launch, which would swamp what is being measured.
enum ChildProcess {
    struct Outcome {
        let status: Int32
        let milliseconds: Double
        /// The child's highest resident set size (from `wait4`'s resource usage).
        let peakResidentBytes: Int
    }

    /// Spawns `executable` with standard input, output and error on /dev/null and waits for it.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String]) throws -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid = pid_t()
        let start = ContinuousClock.now
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchFailure("cannot start \(executable.path): error \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = Measurement.milliseconds(ContinuousClock.now - start)
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Outcome(status: exitStatus, milliseconds: elapsed, peakResidentBytes: Int(usage.ru_maxrss) * 1_024)
    }

    /// Runs `executable` to completion and returns what it printed on standard output (untimed;
    /// for checking the set-up, such as `rider session show`).
    static func output(_ executable: URL, _ arguments: [String], environment: [String: String]) throws -> String {
        let process = untimed(executable, arguments, environment: environment)
        process.standardInput = FileHandle.nullDevice
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let printed = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: printed, as: UTF8.self)
    }

    /// Runs `executable` with `input` on standard input (untimed; for set-up such as a login).
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String], input: String) throws -> Int32 {
        let process = untimed(executable, arguments, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A Foundation `Process` for a set-up run, its standard error on /dev/null.
    private static func untimed(_ executable: URL, _ arguments: [String], environment: [String: String]) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        return process
    }
}

import Foundation
import TestSupport

/// What one run of the `rider` executable did.
struct RiderRun: Sendable, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    let stdout: String
    let stderr: String

    /// The non-empty lines of stdout.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    /// The non-empty lines of stderr.
    var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }

    var description: String {
        "rider \(arguments.joined(separator: " ")) → exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}

/// Runs the built `rider` executable as a child process with a given environment.
enum RiderProcess {
    struct ExecutableNotFound: Error, CustomStringConvertible {
        let name: String
        let searched: [URL]
        var description: String {
            "The `\(name)` executable was not found in \(searched.map(\.path).joined(separator: ", ")). "
                + "Build it first (`swift build --build-tests`) or point RIDER_BIN_DIR at the folder holding it."
        }
    }

    /// `$RIDER_BIN_DIR/rider` when that is set (and nothing else, so a stale binary elsewhere
    /// is never tested by mistake), else `rider` next to the test executable
    /// (`.build/<triple>/debug` on Linux; the `.xctest` bundle's folder on macOS).
    static func executable(named name: String = "rider") throws -> URL {
        var folders: [URL] = []
        if let folder = ProcessInfo.processInfo.environment["RIDER_BIN_DIR"], !folder.isEmpty {
            folders.append(URL(fileURLWithPath: folder, isDirectory: true))
        } else {
            folders.append(Bundle.main.bundleURL)
            folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
            if let first = CommandLine.arguments.first {
                folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
            }
        }
        let candidates = folders.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw ExecutableNotFound(name: name, searched: folders)
        }
        return found
    }

    /// Runs `rider` to completion without blocking a Swift concurrency thread (the in-process
    /// reference server needs them), killing it after `timeout`.
    /// - Parameters:
    ///   - scratch: a folder for the captured output files.
    ///   - stdin: written to the child's standard input, which is then closed; `nil` gives it
    ///     `/dev/null`.
    ///   - wrapper: a program that runs `rider` (its path is passed after the wrapper's own
    ///     arguments), such as `scripts/without-keyctl.py`; none unless told.
    ///   - started: told the child's process id once it runs (to look at a run that hangs).
    static func run(_ arguments: [String], environment: [String: String], stdin: String?, scratch: URL,
                    timeout: Duration = .seconds(90), executable name: String = "rider",
                    through wrapper: [String] = [],
                    started: @escaping @Sendable (Int32) -> Void = { _ in }) async throws -> RiderRun {
        let program: URL, programArguments: [String]
        if let launcher = wrapper.first {
            program = URL(fileURLWithPath: launcher)
            programArguments = Array(wrapper.dropFirst()) + [try executable(named: name).path] + arguments
        } else {
            program = try executable(named: name)
            programArguments = arguments
        }
        let run = try await run(program, programArguments, environment: environment, stdin: stdin, scratch: scratch,
                                timeout: timeout, started: started)
        return RiderRun(arguments: arguments, status: run.status, stdout: run.stdout, stderr: run.stderr)
    }

    /// Runs any `program` the same way: to completion, stdout and stderr captured in files under
    /// `scratch`, `stdin` (or `/dev/null`) as its input, killed after `timeout`; `started` is told
    /// its process id.
    static func run(_ program: URL, _ arguments: [String], environment: [String: String], stdin: String?,
                    scratch: URL, timeout: Duration, started: @escaping @Sendable (Int32) -> Void = { _ in })
        async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = scratch

        let name = UUID().uuidString
        let outURL = scratch.appendingPathComponent("\(name).out")
        let errURL = scratch.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        let input = UninheritedFiles.pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input

        let watchdog = Task {
            try await Task.sleep(for: timeout)
            if process.isRunning { process.terminate() }
        }
        defer { watchdog.cancel() }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
                return
            }
            started(process.processIdentifier)
            if let stdin {
                try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
            }
            try? input.fileHandleForWriting.close()
        }
        return (status, String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

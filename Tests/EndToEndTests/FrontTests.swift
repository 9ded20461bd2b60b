import Foundation
import Testing
import TestSupport

/// `rider` is a small front (Interfaces/CLIFront) that prints help, completion scripts and the
/// version itself, from texts generated out of rider-core's command definitions, and executes
/// rider-core for everything else. These runs keep the two from drifting apart: every command
/// path's help in every spelling, compared byte for byte with what rider-core prints.
@Suite("rider front: answers from rider-core's own texts, hands the rest to rider-core")
struct FrontTests {
    static let regenerate = "run `make front-texts` and commit Interfaces/CLIFront/FrontTexts.swift"

    @Test("every command path's help (--help, -h, help …), the completion scripts and --version: the front alone prints what rider-core prints")
    func everyTextIsRiderCores() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let core = try RiderProcess.executable(named: "rider-core")
        // A folder holding the front and no rider-core: whatever it prints there, it printed itself.
        let lone = try await Self.loneFront(in: sandbox)
        let forms = try await Self.argumentForms(core: core, sandbox: sandbox)
        #expect(forms.count > 100, "only \(forms.count) argument forms: is the command tree read?")
        for arguments in forms {
            let expected = try await ProgramRun.run(core, arguments, environment: sandbox.environment, sandbox: sandbox)
            let served = try await ProgramRun.run(lone, arguments, environment: sandbox.environment, sandbox: sandbox)
            let shown = (["rider"] + arguments).joined(separator: " ")
            guard expected.status == 0, expected.stderr.isEmpty else {
                // rider-core does not answer this with a text: the front must leave it to rider-core.
                #expect(served.status == 127, "`\(shown)`: rider-core exits \(expected.status), but the front answered it")
                continue
            }
            // Compared apart from #expect, so a failure names the first differing line, not two whole texts.
            let answered = served.status == 0 && served.stderr.isEmpty
            let same = served.stdout == expected.stdout
            #expect(answered, "`\(shown)`: the front does not answer it itself (exit \(served.status): \(served.stderr)); \(Self.regenerate)")
            #expect(same, "`\(shown)`: the front prints other text than rider-core \(Self.firstDifference(served.stdout, expected.stdout)); \(Self.regenerate)")
        }
    }

    @Test("with rider-core beside it, everything the front does not answer itself is rider-core's run: output and exit status",
          arguments: [
              ["whoami"],                          // no server configured: exit 10
              ["--bogus"],                         // usage error: exit 2
              ["help", "sesion"],                  // the typo named
              ["--json", "--help"],                // help mixed with another option
              ["whoami", "--json", "--help"],
              ["session", "list", "-h", "--verbose"],
              ["--version", "--json"],
              ["--generate-completion-script", "powershell"],
              ["--experimental-dump-help"],
          ])
    func handsOver(arguments: [String]) async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let core = try await ProgramRun.run(try RiderProcess.executable(named: "rider-core"), arguments,
                                            environment: sandbox.environment, sandbox: sandbox)
        let front = try await ProgramRun.run(try RiderProcess.executable(named: "rider"), arguments,
                                             environment: sandbox.environment, sandbox: sandbox)
        #expect(front.status == core.status, "\(front)\nrider-core: \(core)")
        #expect(front.stdout == core.stdout, "\(front)\nrider-core: \(core)")
        #expect(front.stderr == core.stderr, "\(front)\nrider-core: \(core)")
    }

    @Test("the hand-over is an execv: rider-core runs as the same process, with the same arguments and environment, and its exit status is rider's")
    func sameProcess() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let lone = try await Self.loneFront(in: sandbox)
        // A stand-in rider-core that reports what it was given and exits 42.
        let standIn = lone.deletingLastPathComponent().appendingPathComponent("rider-core")
        try UninheritedFiles.writeExecutable("""
            #!/usr/bin/python3
            import os, sys
            print(os.getpid(), os.getppid(), os.environ.get("FRONT_TEST_MARK"), *sys.argv[1:])
            sys.exit(42)
            """, to: standIn, permissions: 0o755)
        let process = Process()
        process.executableURL = lone
        process.arguments = ["whoami", "--json", "--help"]
        process.environment = sandbox.environment.merging(["FRONT_TEST_MARK": "kept"]) { $1 }
        let output = UninheritedFiles.pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: try output.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 42)
        #expect(text == "\(process.processIdentifier) \(getpid()) kept whoami --json --help\n")
    }

    @Test("help wrapped at another width (COLUMNS) is rider-core's, not the generated 80-column text")
    func otherWidth() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let environment = sandbox.environment.merging(["COLUMNS": "132"]) { $1 }
        let core = try await ProgramRun.run(try RiderProcess.executable(named: "rider-core"), ["--help"],
                                            environment: environment, sandbox: sandbox)
        let front = try await ProgramRun.run(try RiderProcess.executable(named: "rider"), ["--help"],
                                             environment: environment, sandbox: sandbox)
        let narrow = try await ProgramRun.run(try RiderProcess.executable(named: "rider"), ["--help"],
                                              environment: sandbox.environment, sandbox: sandbox)
        #expect(front.stdout == core.stdout, "\(front)\nrider-core: \(core)")
        #expect(front.stdout != narrow.stdout, "COLUMNS=132 should wrap the help differently")
    }

    @Test("help on a terminal wider than 80 columns is rider-core's, wrapped at the terminal's width")
    func terminalWidth() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        // `script` gives rider a pseudo-terminal on stdout, 132 columns wide.
        func onTerminal(_ program: URL) async throws -> String {
            let line = "stty cols 132 rows 50; exec \(program.path) --help"
            let run = try await ProgramRun.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", line, "/dev/null"],
                                               environment: sandbox.environment, sandbox: sandbox)
            #expect(run.status == 0, "\(run)")
            return run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        }
        let front = try await onTerminal(try RiderProcess.executable(named: "rider"))
        let core = try await onTerminal(try RiderProcess.executable(named: "rider-core"))
        #expect(front == core)
        // 91 characters: one line at 132 columns, two at 80.
        #expect(front.contains("OVERVIEW: Log in to a rider community server, edit your rider profile and find other riders."),
                "\(front)")
    }

    @Test("without rider-core the front says so on one line and exits 127; it still answers --help")
    func missingCore() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let lone = try await Self.loneFront(in: sandbox)
        let run = try await ProgramRun.run(lone, ["whoami"], environment: sandbox.environment, sandbox: sandbox)
        #expect(run.status == 127, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.stderr.hasPrefix("rider: error: rider-core is missing") && run.stderr.hasSuffix("; reinstall rider\n"),
                "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run)")
        let help = try await ProgramRun.run(lone, ["--help"], environment: sandbox.environment, sandbox: sandbox)
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: "), "\(help)")
    }

    @Test("installed as make install lays it out, the front finds rider-core in ../libexec/rider/")
    func installedLayout() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let prefix = sandbox.root.appendingPathComponent("prefix", isDirectory: true)
        let bin = prefix.appendingPathComponent("bin", isDirectory: true)
        let libexec = prefix.appendingPathComponent("libexec/rider", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: libexec, withIntermediateDirectories: true)
        try await Self.copyExecutable(try RiderProcess.executable(named: "rider"), to: bin.appendingPathComponent("rider"),
                                      sandbox: sandbox)
        // A symbolic link is enough for the core; it is the front's own folder that is searched.
        try FileManager.default.createSymbolicLink(at: libexec.appendingPathComponent("rider-core"),
                                                   withDestinationURL: try RiderProcess.executable(named: "rider-core"))
        let run = try await ProgramRun.run(bin.appendingPathComponent("rider"), ["--bogus"],
                                           environment: sandbox.environment, sandbox: sandbox)
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.hasPrefix("rider: error: "), "\(run)")
    }

    // MARK: Helpers

    /// A copy of the front in a folder of its own, with no rider-core beside it.
    static func loneFront(in sandbox: Sandbox) async throws -> URL {
        let folder = sandbox.root.appendingPathComponent("lone-front", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("rider")
        try await copyExecutable(try RiderProcess.executable(named: "rider"), to: copy, sandbox: sandbox)
        return copy
    }

    /// Copies a program by `cp` in a process of its own. Copied here, its file would be open for
    /// writing in this process while other tests start programs: a child forked in that moment
    /// inherits the descriptor, and running the copy then fails with "Text file busy" (ETXTBSY)
    /// for as long as that child lives.
    static func copyExecutable(_ source: URL, to destination: URL, sandbox: Sandbox) async throws {
        let copy = try await ProgramRun.run(URL(fileURLWithPath: "/bin/cp"), [source.path, destination.path],
                                            environment: sandbox.environment, sandbox: sandbox)
        #expect(copy.status == 0, "\(copy)")
    }

    /// Every spelling of help for the root and every command path in rider-core's tree (read from
    /// `--experimental-dump-help`, so a new command is covered without touching this test), the
    /// completion scripts and `--version`: the forms scripts/front-texts.py generates.
    static func argumentForms(core: URL, sandbox: Sandbox) async throws -> [[String]] {
        let dump = try await ProgramRun.run(core, ["--experimental-dump-help"], environment: sandbox.environment,
                                            sandbox: sandbox)
        #expect(dump.status == 0, "\(dump)")
        let tree = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let root = try #require(tree["command"] as? [String: Any])
        var paths: [[String]] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, !(path.isEmpty && name == "help") else { continue }
                paths.append(path + [name])
                walk(sub, path + [name])
            }
        }
        walk(root, [])
        var forms: [[String]] = [[], ["--help"], ["-h"], ["help"]]
        for path in paths { forms += [path + ["--help"], path + ["-h"], ["help"] + path] }
        forms.append(["--version"])
        forms += ["bash", "zsh", "fish"].map { ["--generate-completion-script", $0] }
        return forms
    }

    /// Where two texts first differ, for a failure message.
    static func firstDifference(_ served: String, _ expected: String) -> String {
        let a = served.split(separator: "\n", omittingEmptySubsequences: false)
        let b = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(a.count, b.count) {
            let left = index < a.count ? String(a[index]) : "(end)"
            let right = index < b.count ? String(b[index]) : "(end)"
            if left != right { return "at line \(index + 1): front \"\(left)\", rider-core \"\(right)\"" }
        }
        return "(same lines)"
    }
}

/// One run of a program at a given path (RiderProcess runs only the build folder's executables).
struct ProgramRun: Sendable, CustomStringConvertible {
    let program: String
    let arguments: [String]
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String {
        "\(program) \(arguments.joined(separator: " ")) → exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }

    /// Runs `program` to completion with stdin from /dev/null and stdout and stderr into files,
    /// as ``RiderProcess`` runs `rider`.
    static func run(_ program: URL, _ arguments: [String], environment: [String: String],
                    sandbox: Sandbox) async throws -> ProgramRun {
        let run = try await RiderProcess.run(program, arguments, environment: environment, stdin: nil,
                                             scratch: sandbox.root.appendingPathComponent("io"), timeout: .seconds(90))
        return ProgramRun(program: program.lastPathComponent, arguments: arguments, status: run.status,
                          stdout: run.stdout, stderr: run.stderr)
    }
}

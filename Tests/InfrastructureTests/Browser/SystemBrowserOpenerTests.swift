import Foundation
import RiderDomain
import RiderInfrastructure
import Testing
import TestSupport

@Suite("System browser opener")
struct SystemBrowserOpenerTests {
    /// A `$BROWSER` that writes each argument it got on a line of `file`.
    static func recordingBrowser(in directory: URL) throws -> (script: URL, output: URL) {
        let script = directory.appendingPathComponent("browser.sh")
        let output = directory.appendingPathComponent("opened.txt")
        try UninheritedFiles.writeExecutable(
            "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(output.path).tmp'\nmv '\(output.path).tmp' '\(output.path)'\n",
            to: script)
        return (script, output)
    }

    /// What the browser wrote, once it has run (a hang detector, not a speed limit).
    static func opened(_ output: URL) async throws -> [String] {
        for _ in 0..<600 {
            if let text = try? String(contentsOf: output, encoding: .utf8) {
                return text.split(separator: "\n").map(String.init)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the browser never ran")
        return []
    }

    @Test("$BROWSER gets the address as its one argument, and shell syntax in it stays text")
    func browserVariable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (script, output) = try Self.recordingBrowser(in: directory.url)
        let canary = directory.url.appendingPathComponent("pwned")
        let address = try #require(URL(string: "https://id.example.test/device?user_code=AB;$(touch%20\(canary.path))&x='\"`id`"))
        let opener = SystemBrowserOpener(environment: ["BROWSER": script.path, "PATH": "/usr/bin:/bin"])

        #expect(try await opener.open(address))
        #expect(try await Self.opened(output) == [address.absoluteString])
        #expect(!FileManager.default.fileExists(atPath: canary.path))
    }

    @Test("$BROWSER may carry options, as people set it (\"firefox --new-window\")")
    func browserWithOptions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (script, output) = try Self.recordingBrowser(in: directory.url)
        let opener = SystemBrowserOpener(environment: ["BROWSER": "\(script.path) --new-window", "PATH": "/usr/bin:/bin"])
        #expect(try await opener.open(try #require(URL(string: "https://id.example.test/device"))))
        #expect(try await Self.opened(output) == ["--new-window", "https://id.example.test/device"])
    }

    @Test("the browser starts without rider's variables: no vault passphrase, client secret or other RIDER_*; the rest of the environment is kept")
    func noSecretsInherited() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = directory.url.appendingPathComponent("browser.sh")
        let output = directory.url.appendingPathComponent("environment.txt")
        try UninheritedFiles.writeExecutable("#!/bin/sh\nenv > '\(output.path).tmp'\nmv '\(output.path).tmp' '\(output.path)'\n", to: script)
        let opener = SystemBrowserOpener(environment: [
            "BROWSER": script.path, "PATH": "/usr/bin:/bin", "HOME": "/home/ana", "LANG": "C.UTF-8",
            "RIDER_VAULT_PASSPHRASE": "passphrase-canary", "RIDER_CLIENT_SECRET": "secret-canary",
            "RIDER_VAULT_PASSPHRASE_FILE": "/run/canary", "RIDER_BASE_URL": "https://api.example.test",
        ])

        #expect(try await opener.open(try #require(URL(string: "http://127.0.0.1:4711/start/abc"))))
        let environment = try await Self.opened(output)
        #expect(!environment.contains { $0.hasPrefix("RIDER_") }, "\(environment)")
        #expect(!environment.contains { $0.contains("canary") }, "\(environment)")
        #expect(environment.contains("HOME=/home/ana") && environment.contains("LANG=C.UTF-8"), "\(environment)")
    }

    @Test("the browser gets nothing of rider's but the environment: no open descriptor (a file, a pipe), SIGPIPE not ignored, and rider does not wait for it")
    func browserGetsNoDescriptors() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Stand-ins for what rider has open when it starts a browser (a lock file, a pipe), left
        // inheritable as Foundation leaves its own.
        let held = directory.url.appendingPathComponent("held-by-rider")
        let file = open(held.path, O_WRONLY | O_CREAT, 0o600)
        try #require(file >= 0)
        defer { close(file) }
        var pipeEnds: [Int32] = [-1, -1]
        try #require(pipe(&pipeEnds) == 0)
        defer { pipeEnds.forEach { close($0) } }
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }

        // The browser reports what it has, then outlives the call.
        let script = directory.url.appendingPathComponent("browser.sh")
        let output = directory.url.appendingPathComponent("inherited.txt")
        try UninheritedFiles.writeExecutable("""
            #!/bin/sh
            ls -l /proc/$$/fd > '\(output.path).tmp'
            grep SigIgn /proc/$$/status >> '\(output.path).tmp'
            mv '\(output.path).tmp' '\(output.path)'
            sleep 8
            """, to: script)
        let opener = SystemBrowserOpener(environment: ["BROWSER": script.path, "PATH": "/usr/bin:/bin"])
        let clock = ContinuousClock(), started = clock.now
        #expect(try await opener.open(try #require(URL(string: "http://127.0.0.1:4711/start/abc"))))
        #expect(clock.now - started < .seconds(6), "open returns while the browser still runs")

        // `ls -l` lines of the browser's descriptors ("… 0 -> /dev/null"): /dev/null, and the
        // shell's own (its script, the file it writes): nothing else.
        let lines = try await Self.opened(output)
        let opened = lines.compactMap { line in line.range(of: " -> ").map { String(line[$0.upperBound...]) } }
        let own: Set = ["/dev/null", script.path, output.path + ".tmp"]
        #expect(opened.count >= 3 && opened.allSatisfy(own.contains), "\(lines)")
        let ignored = UInt64(lines.first { $0.hasPrefix("SigIgn") }?.split(separator: "\t").last ?? "", radix: 16)
        #expect(ignored.map { $0 & (1 << (UInt64(SIGPIPE) - 1)) == 0 } == true, "\(lines)")
    }

    @Test("a $BROWSER command with ; or # in it is still started in the background; one the shell cannot read is refused")
    func browserCommandShapes() async throws {
        let url = try #require(URL(string: "https://id.example.test/device"))
        let clock = ContinuousClock(), started = clock.now
        // The `&` is on the whole command: rider does not wait out the first part.
        let sequence = SystemBrowserOpener(environment: ["BROWSER": "sleep 8; true # a comment", "PATH": "/usr/bin:/bin"])
        #expect(try await sequence.open(url))
        #expect(clock.now - started < .seconds(6), "open returns at once")

        let unreadable = SystemBrowserOpener(environment: ["BROWSER": "firefox 'unbalanced", "PATH": "/usr/bin:/bin"])
        await #expect {
            try await unreadable.open(url)
        } throws: { error in
            (error as? RiderError)?.code == .invalidConfiguration && "\(error)".contains("BROWSER (firefox 'unbalanced)")
        }
    }

    @Test("without $BROWSER and without a graphical session nothing is opened, and a non-web address never is")
    func nothingToOpenWith() async throws {
        let headless = SystemBrowserOpener(environment: ["PATH": "/usr/bin:/bin"])
        #expect(try await headless.open(try #require(URL(string: "https://id.example.test/device"))) == false)
        let withBrowser = SystemBrowserOpener(environment: ["BROWSER": "/bin/false"])
        #expect(try await withBrowser.open(try #require(URL(string: "file:///etc/passwd"))) == false)
        #expect(try await withBrowser.open(try #require(URL(string: "javascript:alert(1)"))) == false)
    }
}

/// Where a page opens (#33 item 3), decided from a fake environment, a fake PATH and a fake
/// /proc: one case each.
@Suite("System browser opener: the choice")
struct SystemBrowserChoiceTests {
    /// A folder of fake programs (empty scripts) to be PATH, and a fake /proc beside it.
    struct FakeSystem {
        let directory: TemporaryDirectory
        var bin: URL { directory.url.appendingPathComponent("bin") }
        var proc: URL { directory.url.appendingPathComponent("proc") }

        init(programs: [String] = [], procVersion: String = "Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075)",
             wslInterop: Bool = false) throws {
            directory = try TemporaryDirectory()
            try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("bin"),
                                                    withIntermediateDirectories: true)
            let binfmt = directory.url.appendingPathComponent("proc/sys/fs/binfmt_misc")
            try FileManager.default.createDirectory(at: binfmt, withIntermediateDirectories: true)
            try Data(procVersion.utf8).write(to: directory.url.appendingPathComponent("proc/version"))
            if wslInterop { try Data("enabled\n".utf8).write(to: binfmt.appendingPathComponent("WSLInterop")) }
            for program in programs {
                let file = directory.url.appendingPathComponent("bin/\(program)")
                try UninheritedFiles.writeExecutable("#!/bin/sh\n", to: file)
            }
        }

        func opener(_ environment: [String: String] = [:]) -> SystemBrowserOpener {
            SystemBrowserOpener(environment: environment.merging(["PATH": bin.path]) { given, _ in given }, procRoot: proc)
        }
    }

    static let wslKernel = "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1)"

    @Test("$BROWSER wins over everything, WSL and a graphical session included")
    func browserVariableFirst() throws {
        let system = try FakeSystem(programs: ["xdg-open", "wslview"], procVersion: Self.wslKernel, wslInterop: true)
        defer { system.directory.remove() }
        let opener = system.opener(["BROWSER": "firefox --new-window", "DISPLAY": ":0"])
        #expect(opener.choice == .browserVariable("firefox --new-window"))
        #expect(opener.canOpenPages)
    }

    @Test("a graphical session (DISPLAY or WAYLAND_DISPLAY) with xdg-open: xdg-open", arguments: ["DISPLAY", "WAYLAND_DISPLAY"])
    func graphicalSession(variable: String) throws {
        let system = try FakeSystem(programs: ["xdg-open"])
        defer { system.directory.remove() }
        let opener = system.opener([variable: ":0"])
        #expect(opener.choice == .xdgOpen(system.bin.appendingPathComponent("xdg-open").path, session: variable))
        #expect(!opener.isWSL)
    }

    @Test("WSL is recognised by its interop in /proc, by WSL_DISTRO_NAME, or by a Microsoft kernel in /proc/version",
          arguments: ["interop", "distro", "kernel"])
    func wslRecognised(by sign: String) throws {
        let system = try FakeSystem(programs: ["wslview", "xdg-open"], procVersion: sign == "kernel" ? Self.wslKernel
            : "Linux version 6.8.0-45-generic", wslInterop: sign == "interop")
        defer { system.directory.remove() }
        // WSLg sets DISPLAY too; the Windows browser is the one the person has.
        let opener = system.opener(sign == "distro" ? ["WSL_DISTRO_NAME": "Ubuntu", "DISPLAY": ":0"] : ["DISPLAY": ":0"])
        #expect(opener.isWSL)
        #expect(opener.choice == .windows(system.bin.appendingPathComponent("wslview").path))
    }

    @Test("inside WSL without wslview, explorer.exe over the interop")
    func wslExplorer() throws {
        let system = try FakeSystem(programs: ["explorer.exe"], wslInterop: true)
        defer { system.directory.remove() }
        #expect(system.opener().choice == .windows(system.bin.appendingPathComponent("explorer.exe").path))
    }

    @Test("none applies: a clear reason each time, and nothing is opened", arguments: ["headless", "no-xdg-open", "wsl-no-interop"])
    func noneApplies(case name: String) async throws {
        let system = try FakeSystem(procVersion: name == "wsl-no-interop" ? Self.wslKernel : "Linux version 6.8.0")
        defer { system.directory.remove() }
        let opener = system.opener(name == "no-xdg-open" ? ["DISPLAY": ":0"] : [:])
        guard case .none(let why) = opener.choice else {
            Issue.record("expected no browser, got \(opener.choice)")
            return
        }
        let expected = ["headless": "no graphical session", "no-xdg-open": "xdg-open is not installed",
                        "wsl-no-interop": "neither wslview nor explorer.exe"][name] ?? "?"
        #expect(why.contains(expected), "\(why)")
        #expect(why.contains("BROWSER"))
        #expect(!opener.canOpenPages)
        #expect(try await opener.open(try #require(URL(string: "https://id.example.test/device"))) == false)
    }

    @Test("a program that cannot be run here (explorer.exe with the WSL interop off) is not reported as opened")
    func unrunnableProgram() async throws {
        let system = try FakeSystem(wslInterop: true)
        defer { system.directory.remove() }
        // A Windows executable's first bytes: no kernel here runs it without the interop.
        let program = system.bin.appendingPathComponent("wslview")
        try UninheritedFiles.writeExecutable("MZ\u{90}\0\u{3}", to: program)
        let address = try #require(URL(string: "http://127.0.0.1:4711/start/abc"))
        #expect(try await system.opener(["PATH": system.bin.path + ":/usr/bin:/bin"]).open(address) == false)
    }

    @Test("the Windows browser is started with the address as its one argument")
    func wslOpens() async throws {
        let system = try FakeSystem(wslInterop: true)
        defer { system.directory.remove() }
        let (script, output) = try SystemBrowserOpenerTests.recordingBrowser(in: system.directory.url)
        try FileManager.default.moveItem(at: script, to: system.bin.appendingPathComponent("wslview"))
        let address = try #require(URL(string: "http://127.0.0.1:4711/start/abc?x=1&y=2"))
        // The recording script needs printf and mv.
        #expect(try await system.opener(["PATH": system.bin.path + ":/usr/bin:/bin"]).open(address))
        #expect(try await SystemBrowserOpenerTests.opened(output) == [address.absoluteString])
    }
}

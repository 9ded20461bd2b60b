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
        try Data("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(output.path).tmp'\nmv '\(output.path).tmp' '\(output.path)'\n".utf8)
            .write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
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
        try Data("#!/bin/sh\nenv > '\(output.path).tmp'\nmv '\(output.path).tmp' '\(output.path)'\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
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

    @Test("without $BROWSER and without a graphical session nothing is opened, and a non-web address never is")
    func nothingToOpenWith() async throws {
        let headless = SystemBrowserOpener(environment: ["PATH": "/usr/bin:/bin"])
        #expect(try await headless.open(try #require(URL(string: "https://id.example.test/device"))) == false)
        let withBrowser = SystemBrowserOpener(environment: ["BROWSER": "/bin/false"])
        #expect(try await withBrowser.open(try #require(URL(string: "file:///etc/passwd"))) == false)
        #expect(try await withBrowser.open(try #require(URL(string: "javascript:alert(1)"))) == false)
    }
}

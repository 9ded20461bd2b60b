import Foundation
import TestSupport

/// A real MCP server that requires OAuth, neither half written here: the MCP Python SDK's server
/// (`mcp` 2.3.0 from PyPI, `scripts/mcp-server.sh`, streamable HTTP answering POSTs with
/// Server-Sent Events) in front of Glewlwyd 2.7.5 (`DPoPProvider`, with RFC 7591 registration
/// open to public clients and RFC 8707 resource indicators for the MCP URL), each on a free
/// loopback port, started for a test and stopped after it.
///
/// The MCP URL is the protected resource: Glewlwyd gives a token for it (`aud` the URL) to a
/// request that names it as `resource` and asks for `mcp:tools`; the server takes nothing else.
struct MCPServerRig: Sendable {
    /// Glewlwyd, with `registration_endpoint` at `{issuer}/register`.
    let provider: DPoPProvider
    /// `http://127.0.0.1:<port>/mcp`: the MCP endpoint and the resource's identifier.
    let url: URL
    /// The MCP server's log (stderr): why it refused each token it refused.
    let log: URL

    /// The scope the server's tools need (`scopes_supported` of its resource metadata).
    static let scope = "mcp:tools"
    /// The `mcp` package `scripts/requirements-mcp.txt` pins: the ready line names it.
    static let sdkVersion = "2.3.0"

    var issuer: URL { provider.issuer }

    func logged() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Starts Glewlwyd, then the MCP server for it, runs `body` and stops both. The first run on a
    /// machine also builds `.venv-mcp` from PyPI (scripts/mcp-venv.sh), which takes a minute.
    static func with<T: Sendable>(_ body: (MCPServerRig) async throws -> T) async throws -> T {
        let port = try LoopbackSocket.closedPort()
        guard let url = URL(string: "http://127.0.0.1:\(port)/mcp") else {
            throw DirectAPI.Failure(description: "no MCP URL for port \(port)")
        }
        let settings = ["DPOP_PROVIDER_REGISTRATION": "open", "DPOP_PROVIDER_BEARER_CLIENT": "1", "DPOP_PROVIDER_NON_OIDC": "1",
                        "DPOP_PROVIDER_RESOURCES": "\(scope)=\(url.absoluteString)"]
        return try await DPoPProvider.with(settings: settings) { provider in
            let runDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("rider-mcp-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: runDirectory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: runDirectory) }
            let output = runDirectory.appendingPathComponent("stdout")
            let errors = runDirectory.appendingPathComponent("stderr")
            FileManager.default.createFile(atPath: output.path, contents: nil)
            FileManager.default.createFile(atPath: errors.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [PeerProvider.repositoryRoot.appendingPathComponent("scripts/mcp-server.sh").path, "start",
                                 runDirectory.appendingPathComponent("run").path, String(port), provider.issuer.absoluteString]
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            do {
                try await ready(process, output: output, errors: errors, url: url)
                let result = try await body(MCPServerRig(provider: provider, url: url, log: errors))
                await process.stop()
                return result
            } catch {
                await process.stop()
                let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                throw DirectAPI.Failure(description: "\(error)\n--- the MCP server's log (last lines) ---\n\(log.suffix(3000))")
            }
        }
    }

    /// Waits for `mcp server ready: <url> mcp/<version>` (a hang detector, not a limit: the
    /// first run installs the virtualenv).
    private static func ready(_ process: Process, output: URL, errors: URL, url: URL) async throws {
        for _ in 0..<6000 {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("mcp server ready: ") }) {
                let words = line.dropFirst("mcp server ready: ".count).split(separator: " ")
                guard words.count == 2, words[0] == url.absoluteString else { break }
                guard words[1] == "mcp/\(sdkVersion)" else {
                    throw DirectAPI.Failure(description: "these tests were written against mcp/\(sdkVersion), "
                        + "the server runs \(words[1]): move MCPServerRig.sdkVersion on with scripts/requirements-mcp.txt")
                }
                return
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        throw DirectAPI.Failure(description: "the MCP server did not start: \(log.suffix(2000))")
    }

    /// What `scripts/mcp-server/check.py` printed and how it ended, run with the server's
    /// virtualenv (its MCP client is the SDK's own).
    struct PythonRun: Sendable, CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String
        var description: String { "check.py → exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    /// Runs `check.py <command> <issuer> <mcp-url> [arguments…]`, killed after two minutes.
    func python(_ command: String, _ arguments: [String] = []) async throws -> PythonRun {
        let root = PeerProvider.repositoryRoot
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rider-mcp-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("stdout")
        let errors = directory.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = root.appendingPathComponent(".venv-mcp/bin/python")
        process.arguments = ["-B", root.appendingPathComponent("scripts/mcp-server/check.py").path, command,
                             issuer.absoluteString, url.absoluteString] + arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let deadline = ProcessDeadline(process, after: .seconds(120))
        while process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        process.waitUntilExit()
        let killed = deadline.finish()
        let run = PythonRun(status: process.terminationStatus,
                            stdout: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
                            stderr: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
        if killed { throw DirectAPI.Failure(description: "check.py \(command) ran past two minutes: \(run)") }
        return run
    }

    /// An access token for the MCP server, with no browser: check.py registers a public client at
    /// Glewlwyd (RFC 7591), plays the person's part over Glewlwyd's API and redeems the code with
    /// PKCE and `resource` = the MCP URL.
    /// - Returns: the token endpoint's answer (`access_token`, `refresh_token`, `id_token`, …).
    func tokens(scope: String = "openid \(scope)") async throws -> [String: Any] {
        let run = try await python("token", [scope])
        guard run.status == 0, let answer = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
              answer["access_token"] is String else {
            throw DirectAPI.Failure(description: "no token for the MCP server: \(run)")
        }
        return answer
    }
}

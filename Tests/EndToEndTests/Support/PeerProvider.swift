import Foundation
import TestSupport

/// A second, independently written OpenID Connect provider — django-oauth-toolkit, started by
/// `scripts/peer-provider.sh` on a free loopback port — so sign-in is tested against more than
/// RiderKit's own reference server.
struct PeerProvider: Sendable {
    /// `http://127.0.0.1:<port>/o`.
    let issuer: URL

    /// The seeded person and clients (scripts/peer-provider/peer/management/commands/seed_peer.py).
    static let email = "ana@example.com"
    static let password = "correct horse battery staple"
    static let browserClient = "rider-cli"
    static let deviceClient = "rider-device"

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Starts a provider, runs `body` with it, and stops it.
    /// - Parameter environment: extra settings (`PEER_AUTHZ_RESPONSE_ISS=0`).
    static func with<T: Sendable>(environment: [String: String] = [:],
                                  _ body: (PeerProvider) async throws -> T) async throws -> T {
        let runDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("rider-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runDirectory, withIntermediateDirectories: true)
        let output = runDirectory.appendingPathComponent("stdout")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [repositoryRoot.appendingPathComponent("scripts/peer-provider.sh").path, "start",
                             runDirectory.appendingPathComponent("run").path, String(try LoopbackSocket.closedPort())]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: output.appendingPathExtension("err").creatingFile())
        try process.run()
        do {
            let result = try await body(try await ready(process, output: output))
            await process.stop()
            try? FileManager.default.removeItem(at: runDirectory)
            return result
        } catch {
            await process.stop()
            try? FileManager.default.removeItem(at: runDirectory)
            throw error
        }
    }

    /// The provider, once its ready line is out. The first start installs its virtualenv from
    /// PyPI: a hang detector, not a limit.
    private static func ready(_ process: Process, output: URL) async throws -> PeerProvider {
        for _ in 0..<6000 {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("peer provider ready: ") }),
               let issuer = URL(string: String(line.dropFirst("peer provider ready: ".count))) {
                return PeerProvider(issuer: issuer)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let log = (try? String(contentsOf: output.appendingPathExtension("err"), encoding: .utf8)) ?? ""
        throw DirectAPI.Failure(description: "the peer provider did not start: \(log.suffix(2000))")
    }
}

private extension URL {
    func creatingFile() -> URL {
        FileManager.default.createFile(atPath: path, contents: nil)
        return self
    }
}

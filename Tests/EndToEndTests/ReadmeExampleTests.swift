import Foundation
import RiderReferenceServer
import Testing

@Suite("the README's embedding example")
struct ReadmeExampleTests {
    @Test("the example program from the README runs against the reference server and prints what it promises")
    func readmeExampleRuns() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let run = try await RiderProcess.run(
                [], environment: sandbox.environment, stdin: nil,
                scratch: sandbox.root.appendingPathComponent("io"), executable: "ReadmeExample")
            await sandbox.transcript.record(run)

            #expect(run.status == 0, "\(run)")
            #expect(run.lines.first == "Signed in as \(Demo.userID)", "\(run)")
            #expect(run.lines.count == 7, "sign-in line, five riders, the saved version: \(run)")
            #expect(run.lines.last?.hasPrefix("Profile saved as version ") == true, "\(run)")
            // The example logs out at the end, so nothing is left in the vault.
            #expect(sandbox.sessionFile() == nil, "\(run)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }
}

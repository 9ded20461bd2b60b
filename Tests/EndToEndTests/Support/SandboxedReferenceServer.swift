import Foundation
import RiderReferenceServer
import Testing
import TestSupport

/// Runs `body` with a fresh reference server (TestSupport's `withReferenceServer`) and a sandbox
/// pointed at it; returns once the server has stopped and the sandbox is gone, whatever happened.
func withSandboxedReferenceServer(
    // Access tokens outlive the slowest run on the slowest runner, so no refresh happens
    // unless a test asks for one (`expireAccessTokens`).
    _ configuration: ReferenceServerConfiguration = ReferenceServerConfiguration(seedUsers: 300,
                                                                                 accessTokenTTL: .seconds(3600)),
    _ body: (RunningReferenceServer, Sandbox) async throws -> Void
) async throws {
    try await withReferenceServer(configuration) { server in
        let sandbox = try Sandbox(server: server.baseURL)
        defer { sandbox.remove() }
        try await body(server, sandbox)
    }
}

/// Checks that no token the server ever issued, and not the password, appears in anything
/// `rider` printed in `sandbox`.
func expectNoSecretsLeaked(from server: RunningReferenceServer, in sandbox: Sandbox,
                           sourceLocation: SourceLocation = #_sourceLocation) async {
    let tokens = await server.store.issuedTokens()
    let outputs = await sandbox.transcript.outputs
    #expect(!tokens.isEmpty, "the scenario should have issued tokens", sourceLocation: sourceLocation)
    // Counted rather than compared, so a failure does not print the secret itself.
    let leakedTokens = outputs.filter { output in tokens.contains { output.contains($0) } }.count
    let leakedPasswords = outputs.filter { $0.contains(Demo.password) }.count
    #expect(leakedTokens == 0, "an issued token appeared in rider's output", sourceLocation: sourceLocation)
    #expect(leakedPasswords == 0, "the password appeared in rider's output", sourceLocation: sourceLocation)
}

import Foundation
import RiderReferenceServer
import Testing

/// With only an issuer configured and no client id, `rider login --web` names one step that
/// works (issue 35, item 4): where the provider registers clients, the sign-in as a protected
/// resource that registers rider (docs/registration.md); where it does not, setting the id.
@Suite("rider CLI: browser sign-in without a client id")
struct ClientIDAdviceTests {
    @Test("the provider registers clients: the advised command, run as printed, signs in")
    func advisedCommandWorks() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, opened) = try DeviceSignInTests.issuerOnly(server, browser: sandbox)
            let refused = try await sandbox.rider(["login", "--web"], environment: environment)
            #expect(refused.status == 10, "\(refused)")
            // One command in backquotes, and no other step beside it.
            let commands = refused.stderr.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            #expect(commands.count == 1, "one step: \(refused)")
            let advised = try #require(commands.first, "\(refused)")
            #expect(advised == "rider login --web --resource \(server.baseURL.absoluteString)", "\(refused)")
            #expect(!refused.stderr.contains("config set client_id"), "not a second way round: \(refused)")

            let arguments = advised.split(separator: " ").dropFirst().map(String.init)
            let (run, answer) = try await DeviceSignInTests.signingIn(
                sandbox, arguments, environment: environment, opened: opened) { start in
                try await BrowserSignInTests.answerByForm(try await BrowserSignInTests.providerPage(behind: start),
                                                          server: server)
            }
            #expect(answer.contains("Signed in"), "\(answer)")
            #expect(run.status == 0, "\(run)")
            let whoami = try await sandbox.rider(["whoami"], environment: environment)
            #expect(whoami.status == 0 && whoami.stdout.contains(Demo.email), "\(whoami)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("the provider takes no registrations: setting client_id is the step, said once")
    func noRegistration() async throws {
        var configuration = DeviceSignInTests.configuration
        configuration.clientRegistration = .off
        try await withSandboxedReferenceServer(configuration) { server, sandbox in
            let (environment, _) = try DeviceSignInTests.issuerOnly(server, browser: sandbox)
            let refused = try await sandbox.rider(["login", "--web"], environment: environment)
            #expect(refused.status == 10, "\(refused)")
            #expect(refused.stderr.contains("`rider config set client_id ID` (or RIDER_CLIENT_ID)"), "\(refused)")
            #expect(refused.stderr.components(separatedBy: "client_id").count == 2, "said once: \(refused)")
            #expect(!refused.stderr.contains("--resource"), "\(refused)")
        }
    }
}

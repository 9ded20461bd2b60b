import Foundation
import RiderKit
import RiderReferenceServer
import Testing

@Suite("rider CLI: how requests introduce themselves")
struct RequestIdentityTests {
    @Test("every request names rider and RiderKit with their version, and the locale's language")
    func userAgentAndLanguage() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let whoami = try await sandbox.rider(["whoami"], environment: ["LANG": "de_CH.UTF-8", "LANGUAGE": "fr"])
            #expect(whoami.status == 0, "\(whoami)")

            let version = RequestIdentity.libraryVersion
            let identities = await server.store.clientIdentities()
            #expect(identities.allSatisfy { $0.userAgent == "rider/\(version) RiderKit/\(version)" }, "\(identities)")
            #expect(identities.contains(ClientIdentity(userAgent: "rider/\(version) RiderKit/\(version)",
                                                       acceptLanguage: "fr, de-CH;q=0.9")), "\(identities)")
            // Without a locale RiderKit sends no Accept-Language of its own (the URLSession
            // transport then adds its default, `en`), so only the run with a locale is checked.
        }
    }
}

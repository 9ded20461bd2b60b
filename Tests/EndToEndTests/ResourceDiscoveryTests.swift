import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: the provider from a protected resource's URL alone (RFC 9728)")
struct ResourceDiscoveryTests {
    /// Neither a base URL nor an issuer: only the resource's URL on the command line.
    static let nothingConfigured = ["RIDER_BASE_URL": "", "RIDER_ISSUER": ""]

    @Test("provider show --resource finds the reference server's metadata and its issuer, with nothing configured")
    func fromTheAPIAlone() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let base = server.baseURL.absoluteString
            let run = try await sandbox.rider(["provider", "show", "--resource", base, "--json"],
                                              environment: Self.nothingConfigured)
            #expect(run.status == 0, "\(run)")
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let resource = try #require(shown["protected_resource"] as? [String: Any])
            #expect(resource["resource"] as? String == base)
            #expect(resource["metadata_url"] as? String == base + "/.well-known/oauth-protected-resource")
            #expect(resource["found_at"] as? String == "root", "the API's root answers 404 without a challenge")
            #expect(resource["authorization_servers"] as? [String] == [base])
            let server = try #require(shown["authorization_server"] as? [String: Any])
            #expect(server["issuer"] as? String == base)
            #expect((server["endpoints"] as? [String: String])?["revocation_endpoint"] == base + "/auth/revoke")

            let human = try await sandbox.rider(["provider", "show", "--resource", base], environment: Self.nothingConfigured)
            #expect(human.status == 0, "\(human)")
            #expect(human.lines.first == "Protected resource (RFC 9728)", "\(human)")
            #expect(human.lines.contains { $0.contains("authorization servers") && $0.hasSuffix(base) }, "\(human)")
            #expect(human.lines.contains("Authorization server (chosen)"), "\(human)")
        }
    }

    @Test("a resource whose 401 names metadata for another resource is refused (exit 10), saying which")
    func metadataOfAnotherResource() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let asked = server.baseURL.absoluteString + "/auth/me"
            let run = try await sandbox.rider(["provider", "show", "--resource", asked], environment: Self.nothingConfigured)
            #expect(run.status == 10, "\(run)")
            #expect(run.stderr.contains("is for the resource '\(server.baseURL.absoluteString)'"), "\(run)")
            #expect(run.stdout.isEmpty)
        }
    }

    @Test("a configured issuer the resource does not list is refused (exit 10), and never asked")
    func configuredIssuerNotListed() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let run = try await sandbox.rider(
                ["--issuer", "https://id.example.test", "provider", "show", "--resource", server.baseURL.absoluteString],
                environment: Self.nothingConfigured)
            #expect(run.status == 10, "\(run)")
            #expect(run.stderr.contains("does not take tokens of the configured issuer https://id.example.test"), "\(run)")
        }
    }
}

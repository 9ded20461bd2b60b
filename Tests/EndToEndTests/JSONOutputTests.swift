import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: --json output")
struct JSONOutputTests {
    @Test("--json prints one parseable object per command, with snake_case keys and ISO-8601 dates")
    func jsonOutputParses() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let login = try object(try await sandbox.loginAsDemo("--json"))
            #expect(login["user_id"] as? String == Demo.userID)
            #expect(login["email"] as? String == Demo.email)
            #expect(isISO8601(login["expires_at"]))

            let whoami = try object(try await sandbox.rider("whoami", "--json"))
            #expect(whoami["id"] as? String == Demo.userID)
            #expect(whoami["display_name"] is String)
            #expect(Set(whoami.keys) == ["id", "email", "display_name", "role", "rider_type", "created_at"])

            let session = try object(try await sandbox.rider("--json", "session", "show"))
            #expect(session["user_id"] as? String == Demo.userID)
            #expect(session["expires_in_seconds"] is Int)
            #expect(session["vault"] is String)
            #expect(!session.keys.contains { $0.contains("token") }, "no token field, not even empty")

            let profile = try object(try await sandbox.rider("profile", "show", "--json"))
            #expect(profile["user_id"] as? String == Demo.userID)
            #expect(profile.keys.contains("avatar_url"), "absent values are null, not missing")
            #expect(profile["etag"] is String)

            let page = try object(try await sandbox.rider("users", "search", "jose", "--limit", "3", "--json"))
            #expect(page["total"] is Int)
            #expect(page["has_next"] is Bool)
            #expect((page["users"] as? [Any])?.count == 3)

            let user = try object(try await sandbox.rider("users", "show", "u_000001", "--json"))
            #expect(user["id"] as? String == "u_000001")

            let logout = try object(try await sandbox.rider("logout", "--json"))
            #expect(logout["revoked_on_server"] as? Bool == true)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("with --json an error is a JSON object on stderr and stdout stays empty")
    func jsonErrorsGoToStderr() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            _ = try await sandbox.loginAsDemo()
            let run = try await sandbox.rider("users", "show", "u_999999", "--json")
            #expect(run.status == 5, "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(run.stderr.utf8)) as? [String: Any])
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["code"] as? String == "not_found")
            #expect((error["message"] as? String)?.isEmpty == false)
        }
    }

    private func object(_ run: RiderRun, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
        #expect(run.lines.count == 1, "one line of JSON: \(run)", sourceLocation: sourceLocation)
        let parsed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        return try #require(parsed as? [String: Any], "\(run)", sourceLocation: sourceLocation)
    }

    private func isISO8601(_ value: Any?) -> Bool {
        guard let text = value as? String else { return false }
        return (try? Date(text, strategy: .iso8601)) != nil
    }
}

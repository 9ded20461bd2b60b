import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: registering and editing")
struct AccountAndProfileTests {
    @Test("a new account can register, log in and see itself; registering the same email again exits 6")
    func registerThenLogin() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            let password = "new-rider-password\n"
            let register = try await sandbox.rider(
                "register", "--email", "new.rider@example.com", "--display-name", "New Rider",
                "--type", "learner", "--password-stdin", stdin: password)
            #expect(register.status == 0, "\(register)")
            #expect(register.stdout.hasPrefix("Registered new.rider@example.com as u_"), "\(register)")

            let login = try await sandbox.rider("login", "--email", "new.rider@example.com", "--password-stdin",
                                                stdin: password)
            #expect(login.status == 0, "\(login)")
            let whoami = try await sandbox.rider("whoami")
            #expect(whoami.lines.contains { $0.hasPrefix("display name") && $0.hasSuffix("New Rider") }, "\(whoami)")

            let again = try await sandbox.rider(
                "register", "--email", "new.rider@example.com", "--display-name", "Someone Else",
                "--type", "mentor", "--password-stdin", stdin: password)
            #expect(again.status == 6, "\(again)")
            #expect(again.errorLines.count == 1, "\(again)")
        }
    }

    @Test("an edit based on a stale version exits 6, says the profile changed and shows the current values")
    func staleEditIsAConflict() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            _ = try await sandbox.loginAsDemo()
            let before = try await sandbox.rider("profile", "show", "--json")
            let profile = try #require(try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [String: Any])
            let staleVersion = try #require(profile["etag"] as? String)
            let edit = try await sandbox.rider("profile", "update", "--description", "Edited elsewhere")
            #expect(edit.status == 0, "\(edit)")

            let run = try await sandbox.rider("profile", "update", "--description", "Mine", "--if-match", staleVersion)
            #expect(run.status == 6, "\(run)")
            #expect(run.errorLines.first?.contains("changed elsewhere") == true, "\(run)")
            #expect(run.stderr.contains("Edited elsewhere"), "the current values are shown: \(run)")
            let after = try await sandbox.rider("profile", "show")
            #expect(after.lines.contains { $0.hasPrefix("description") && $0.hasSuffix("Edited elsewhere") }, "\(after)")
        }
    }

    @Test("a value the server rejects exits 9 and names the field")
    func rejectedInput() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            _ = try await sandbox.loginAsDemo()
            let run = try await sandbox.rider("profile", "update", "--display-name", "   ", "--json")
            #expect(run.status == 9, "\(run)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(run.stderr.utf8)) as? [String: Any])
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["code"] as? String == "invalid_input")
            let fields = (error["fields"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
            #expect(fields == ["display_name"], "\(run)")
        }
    }
}

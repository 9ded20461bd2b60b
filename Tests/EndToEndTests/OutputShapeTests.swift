import Foundation
import RiderReferenceServer
import Testing

/// What scripts read stays one shape (issue 35, item 6): an unset base location is an object of
/// nulls, `session show` and `session list` name the vault alike, and piped listings line up by
/// the columns a terminal gives each character.
@Suite("rider CLI: output scripts read")
struct OutputShapeTests {
    @Test("profile location --json with none set: the keys of a set one, each null, never a bare null")
    func unsetLocationIsAnObject() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let none = try await sandbox.rider("profile", "location", "--json")
            #expect(none.status == 0, "\(none)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(none.stdout.utf8)) as? [String: Any],
                                    "an object: \(none)")
            #expect(Set(body.keys) == ["latitude", "longitude", "place_name", "updated_at"], "\(none)")
            #expect(body.values.allSatisfy { $0 is NSNull }, "\(none)")

            #expect(try await sandbox.rider("profile", "location", "--set", "46.5,6.25").status == 0)
            let set = try await sandbox.rider("profile", "location", "--json")
            let setBody = try #require(try JSONSerialization.jsonObject(with: Data(set.stdout.utf8)) as? [String: Any])
            #expect(Set(setBody.keys) == Set(body.keys), "the same keys set or not: \(set)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("session show --json and session list --json name the vault alike: a kind and where it is")
    func vaultNamedAlike() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let show = try await sandbox.rider("session", "show", "--json")
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any],
                                     "\(show)")
            let list = try await sandbox.rider("session", "list", "--json")
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any],
                                      "\(list)")
            let row = try #require((listed["sessions"] as? [[String: Any]])?.first, "\(list)")
            // No D-Bus in the sandbox: the automatic vault chose the encrypted file.
            #expect(shown["vault"] as? String == "encrypted-file", "a kind, not prose: \(show)")
            #expect(row["vault"] as? String == shown["vault"] as? String, "\(list)")
            let file = try #require(sandbox.sessionFile()).path
            #expect((shown["vault_location"] as? String)?.contains(file) == true, "\(show)")
            #expect(row["vault_location"] as? String == shown["vault_location"] as? String, "\(list)")

            let plain = try await sandbox.rider("session", "show")
            #expect(plain.lines.contains { $0.hasPrefix("vault ") && $0.contains(file) }, "people still read where: \(plain)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("piped, users search pads by display width: a CJK name (two columns a character) and a combining mark")
    func pipedColumnsByDisplayWidth() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let names = ["東京 太郎", "Zoe\u{0308} Ann", "Bo"]
            for (index, name) in names.enumerated() {
                let registered = try await sandbox.rider("register", "--email", "widthcheck-\(index)@example.com",
                                                         "--display-name", name, "--type", "learner", "--password-stdin",
                                                         stdin: "a password for widthcheck\n")
                #expect(registered.status == 0, "\(registered)")
            }
            #expect(try await sandbox.loginAsDemo().status == 0)
            let piped = try await sandbox.rider("users", "search", "widthcheck")
            #expect(piped.status == 0, "\(piped)")
            let rows = piped.lines.filter { $0.hasPrefix("u_") }
            #expect(rows.count == 3, "\(piped)")
            // Where each row's email starts, in terminal columns (counted here independently of rider:
            // CJK ideographs two, a letter with its combining mark one).
            let starts = rows.compactMap { row -> Int? in
                guard let at = row.range(of: "widthcheck-") else { return nil }
                return row[..<at.lowerBound].reduce(0) { width, character in
                    let scalar = character.unicodeScalars.first?.value ?? 0
                    return width + ((0x3000...0x9FFF).contains(scalar) ? 2 : 1)
                }
            }
            #expect(starts.count == 3 && Set(starts).count == 1, "emails start in one column: \(piped)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }
}

import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: users search as a table on a terminal, plain when piped")
struct UserTableTests {
    @Test("users search pads columns under titles on a TTY and prints plain escape-free lines when piped")
    func tableOnTerminalPlainWhenPiped() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)

            let piped = try await sandbox.rider("users", "search", "jo", "--limit", "5")
            #expect(piped.status == 0, "\(piped)")
            #expect(piped.lines.count == 6, "header and five riders, no column titles: \(piped)")
            #expect(piped.lines.dropFirst().allSatisfy { $0.hasPrefix("u_") && !$0.contains("\t") })
            #expect(!piped.stdout.contains("\u{1B}"), "no escapes when piped")

            let styled = try await sandbox.rider("users", "search", "jo", "--limit", "5", "--color", "always")
            #expect(styled.stdout.contains("\u{1B}[1mID"), "--color always styles even when piped: \(styled)")

            let json = try await sandbox.rider("users", "search", "jo", "--limit", "5", "--json", "--color", "always")
            #expect(!json.stdout.contains("\u{1B}") && json.stdout.hasPrefix("{"), "--json is never styled")

            let terminal = try TerminalSession.start(
                "'\(try RiderProcess.executable().path)' users search jo --limit 5", environment: sandbox.environment)
            defer { terminal.stop() }
            let screen = try await terminal.waitFor("EXIT=")
            #expect(screen.contains("EXIT=0"), "\(screen)")
            let lines = screen.split(separator: "\n").map(String.init)
            let titles = try #require(lines.first { $0.hasPrefix("ID ") }, "a title row: \(screen)")
            let rows = lines.filter { $0.hasPrefix("u_") }
            #expect(rows.count == 5, "\(screen)")
            // Every row's email starts in the EMAIL title's display column, accented names or not.
            let emailColumn = try #require(titles.range(of: "EMAIL")).lowerBound
            let offset = titles.distance(from: titles.startIndex, to: emailColumn)
            for row in rows {
                let at = try #require(row.range(of: "@")).lowerBound
                let start = row[..<at].lastIndex(of: " ").map { row.index(after: $0) } ?? at
                #expect(row.distance(from: row.startIndex, to: start) == offset, "misaligned: \(screen)")
            }
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }
}

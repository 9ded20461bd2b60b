import Foundation
import Testing

/// `--help` as the built `rider` prints it in an 80-column terminal never breaks a command across
/// lines (issue 35, item 9): a person copies an example or a `rider …` span whole.
@Suite("rider CLI: help in 80 columns")
struct HelpWrappingTests {
    @Test("the helps that once split a command keep each example and each `…` span on one line", arguments: [
        [], ["session"], ["session", "token"], ["profile", "show"], ["config", "set"], ["config", "unset"],
        ["config", "show"], ["request"],
    ])
    func examplesWhole(command: [String]) async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let run = try await sandbox.rider(command + ["--help"], environment: ["COLUMNS": "80"])
        #expect(run.status == 0, "\(run)")
        let lines = run.stdout.components(separatedBy: "\n")
        #expect(lines.contains { $0.count > 60 }, "the help was wrapped near 80 columns, not wider: \(run)")
        for (index, line) in lines.enumerated() {
            #expect(line.filter { $0 == "`" }.count % 2 == 0, "a span broken at: \(line)")
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            if line.hasPrefix("  rider "), !line.hasSuffix("\\"), let first = next.first {
                #expect(first.isWhitespace || next.hasSuffix(":"), "an example broken after: \(line) ⏎ \(next)")
            }
        }
    }
}

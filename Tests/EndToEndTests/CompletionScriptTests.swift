import Foundation
import Testing

@Suite("rider CLI: shell completions")
struct CompletionScriptTests {
    @Test("--generate-completion-script prints a script for bash, zsh and fish that knows the subcommands",
          arguments: ["bash", "zsh", "fish"])
    func completionScript(shell: String) async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let run = try await sandbox.rider("--generate-completion-script", shell)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
        // fish spells long options `-l json`.
        for word in ["users", "login", "search", "config", "json", "color", "verbose"] {
            #expect(run.stdout.contains(word), "the \(shell) script does not mention \(word)")
        }
        // The config keys complete from a fixed list, the avatar from picture files.
        #expect(run.stdout.contains("base_url") && run.stdout.contains("cache_keep_on_logout"))
    }

    @Test("an unknown shell is a usage error (exit 2)")
    func unknownShell() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let run = try await sandbox.rider("--generate-completion-script", "powershell")
        #expect(run.status == 2, "\(run)")
    }
}

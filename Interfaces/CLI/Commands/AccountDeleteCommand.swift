import ArgumentParser
import Foundation
import RiderKit

/// `rider account delete [--yes]`: deletes your account after you type its email.
struct AccountDeleteCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete your account on the server, and its session and cached data here.",
        discussion: """
            This cannot be undone. rider asks you to type the account's email on the terminal to \
            confirm; --yes skips the question (for scripts). Without a terminal and without \
            --yes, nothing is deleted and the command exits with 2.

            Examples:
              rider account delete
              rider account delete --yes --json
            """
    )

    @Flag(help: "Delete without asking for confirmation.")
    var yes = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        if !yes {
            let email = try await context.rider.currentUser(policy: .networkOnly).value.email
            let typed = try TerminalInput.readLine(
                prompt: "This deletes the account \(email) and cannot be undone. Type its email to confirm: ",
                echo: true, hint: "pass --yes to delete without asking")
            guard typed.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(email) == .orderedSame else {
                throw CLIError.usage("The email typed does not match \(email); nothing was deleted.")
            }
        }
        let outcome = try await context.rider.deleteAccount()
        let output = AccountDeletedOutput(outcome)
        try context.print(json: output, lines: [output.line])
    }
}

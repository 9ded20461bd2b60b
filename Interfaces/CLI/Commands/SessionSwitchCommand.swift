import ArgumentParser
import Foundation
import RiderKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rider session switch`: makes another stored account the server's active one, as `gh auth switch`.
struct SessionSwitchCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "switch",
        abstract: "Make another stored account the server's active account.",
        discussion: """
            With --account, that account; with one other account stored, that one; with several, \
            a choice on the terminal (without a terminal, the command names them and changes \
            nothing). Later commands use the active account unless given --account; programs \
            already running keep theirs.

            Examples:
              rider session switch
              rider session switch --account ana@example.com
              rider session switch --server https://staging.example.com --account 42
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        // Without a configured server, the one server with stored sessions is meant; with several,
        // the person says which.
        let (contexts, configured) = try CommandContext.forStoredSessions(global)
        guard let context = contexts.first else {
            throw RiderError.unknownAccount(global.account ?? "(any)", server: "this machine", stored: [])
        }
        if !configured, contexts.count > 1 {
            throw CLIError.usage("Sessions of several servers are stored here ("
                + contexts.map(\.server).joined(separator: ", ") + "). Pass --server to choose one.")
        }
        let accounts = context.rider.accounts
        let stored = try await accounts.list()
        let target: Account
        if let name = global.account {
            target = try await accounts.named(name)
        } else {
            let others = stored.filter { !$0.isActive }
            switch others.count {
            case 0:
                guard let only = stored.first else {
                    throw RiderError.unknownAccount("(any)", server: accounts.server, stored: [])
                }
                target = only
            case 1:
                target = others[0]
            default:
                target = try Self.choose(among: others, server: accounts.server)
            }
        }
        try await accounts.activate(target.id)
        let output = SwitchOutput(server: accounts.server, account: target.displayName, userID: target.id.rawValue)
        try context.print(json: output, lines: ["Now using \(target.displayName) on \(accounts.server)."])
    }

    /// Asks on the terminal which of `candidates` to switch to; without one, names them.
    static func choose(among candidates: [Account], server: String) throws -> Account {
        let names = candidates.map(\.displayName)
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else {
            throw CLIError.usage("Several accounts are stored on \(server): "
                + "\(names.joined(separator: ", ")). Pass --account to choose one.")
        }
        var prompt = "Switch to which account on \(server)?\n"
        for (index, name) in names.enumerated() { prompt += "  \(index + 1). \(name)\n" }
        prompt += "Number: "
        Console.standardError(prompt)
        guard let line = try LineInput.readLine(from: STDIN_FILENO),
              let number = Int(line.trimmingCharacters(in: .whitespaces)), candidates.indices.contains(number - 1)
        else {
            throw CLIError.usage("No account was chosen; nothing changed.")
        }
        return candidates[number - 1]
    }

    struct SwitchOutput: Encodable, Sendable {
        let server: String
        let account: String
        let userID: String
    }
}

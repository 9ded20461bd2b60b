import ArgumentParser
import RiderKit

/// `rider vault migrate --to …`: moves the session between the keyring and the encrypted file.
struct VaultMigrateCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move the stored sessions to the keyring or to the encrypted file.",
        discussion: """
            Moves every account's session (or the one given with --account). Each is written to \
            the destination, read back and compared, and only then removed from the other \
            backend: a failure never loses a session.

            Examples:
              rider vault migrate --to secret-service
              rider vault migrate --to encrypted-file
            """
    )

    @Option(name: .long, help: ArgumentHelp("Where the session should go.", valueName: "secret-service|encrypted-file"))
    var to: Destination

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    enum Destination: String, ExpressibleByArgument, CaseIterable {
        case secretService = "secret-service"
        case encryptedFile = "encrypted-file"
    }

    func run() async throws {
        let context = try CommandContext(global)
        let vaults = try await context.resolvedVaults()
        let (source, destination): (VaultChoice, VaultChoice) = switch to {
        case .secretService: (.encryptedFile(nil), .secretService)
        case .encryptedFile: (.secretService, .encryptedFile(nil))
        }
        var movedAccounts: [String] = []
        var location = vaults.make(destination).location
        for account in try await context.vaultAccounts() {
            let into = vaults.make(destination, account: account.id)
            location = into.location
            if try await MigrateSession(from: vaults.make(source, account: account.id), to: into)() {
                movedAccounts.append(account.displayName)
            }
        }
        let output = VaultMigrateOutput(moved: !movedAccounts.isEmpty, from: source.name, to: destination.name,
                                        location: location, accounts: movedAccounts)
        try context.print(json: output, lines: [output.line])
    }
}

/// What `rider vault migrate` reports.
struct VaultMigrateOutput: Encodable, Sendable {
    let moved: Bool
    let from: String
    let to: String
    let location: String
    /// The accounts whose session moved.
    var accounts: [String] = []

    var line: String {
        guard moved else { return "No session is stored in \(from); nothing to move." }
        let whose = accounts.isEmpty ? "the session" : "the session of \(accounts.joined(separator: ", "))"
        return "Moved \(whose) from \(from) to \(to) (\(location))."
    }
}

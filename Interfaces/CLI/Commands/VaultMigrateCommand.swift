import ArgumentParser
import RiderKit

/// `rider vault migrate --to …`: moves the session between the keyring and the encrypted file.
struct VaultMigrateCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move the stored session to the keyring or to the encrypted file.",
        discussion: """
            Writes the session to the destination, reads it back and compares, and only then \
            removes it from the other backend: a failure never loses the session.

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
        let from = vaults.make(source)
        let into = vaults.make(destination)
        let moved = try await MigrateSession(from: from, to: into)()
        let output = VaultMigrateOutput(moved: moved, from: source.name, to: destination.name,
                                        location: into.location)
        try context.print(json: output, lines: [output.line])
    }
}

/// What `rider vault migrate` reports.
struct VaultMigrateOutput: Encodable, Sendable {
    let moved: Bool
    let from: String
    let to: String
    let location: String

    var line: String {
        moved ? "Moved the session from \(from) to \(to) (\(location))."
            : "No session is stored in \(from); nothing to move."
    }
}

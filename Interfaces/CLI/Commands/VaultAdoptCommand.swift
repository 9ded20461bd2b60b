import ArgumentParser
import Foundation
import RiderKit

/// `rider vault adopt`: binds a session file from before sessions recorded their server to the
/// configured server, on the person's word.
struct VaultAdoptCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "adopt",
        abstract: "Bind an older session file to the configured server.",
        discussion: """
            Session files record the server they belong to, and are never used for another one. \
            A file written by an older RiderKit at a path you configured (RIDER_VAULT=file:/…) \
            does not say whose it is, so it is not used until you say so: run this with the \
            server it belongs to. Files at the default location need nothing: their folder names \
            the server, and they are bound on the next save.

            Example:
              rider --server https://api.example.com vault adopt
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let vaults = try await context.resolvedVaults()
        let file = vaults.encryptedFile()
        let server = vaults.binding.description
        let adopted: Bool
        adopted = try await file.adopt()
        let lines = adopted
            ? ["Bound \(file.file.path) to \(server)."]
            : ["Nothing to do: \(file.file.path) is missing or already bound to \(server)."]
        try context.print(json: VaultAdoptOutput(file: file.file.path, server: server, adopted: adopted), lines: lines)
    }
}

/// What `rider vault adopt` reports.
struct VaultAdoptOutput: Encodable, Sendable {
    let file: String
    let server: String
    let adopted: Bool
}

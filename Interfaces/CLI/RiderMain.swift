import ArgumentParser
import Foundation
import RiderInfrastructure
import RiderApplication
import RiderKit

/// The entry point: parses the command line itself so every failure gets the documented exit
/// code (ArgumentParser alone would exit 64 for a usage error and 1 for everything else).
@main
enum RiderMain {
    static func main() async {
        let arguments = GlobalOptions.hoisted(Array(CommandLine.arguments.dropFirst()))
        // Handled here rather than as ArgumentParser's `version`, which would list --version in
        // the help of every subcommand.
        if arguments == ["--version"] {
            Console.standardOutput(lines: [RequestIdentity.libraryVersion])
            exit(ExitStatus.success.rawValue)
        }
        let command: any ParsableCommand
        // `rider help sesion` would print the top help and succeed: name the subcommand meant.
        if arguments.first == "help", let typo = SubcommandSuggestion.error(for: arguments) {
            exit(ErrorReport(json: arguments.contains("--json")).report(typo))
        }
        do {
            command = try RiderCommand.parseAsRoot(arguments)
        } catch {
            // Parsing failed, so `--json` is only known from the raw arguments. A mistyped
            // subcommand is named as such rather than as some other command's usage error.
            exit(ErrorReport(json: arguments.contains("--json")).report(
                tokenOnCommandLine(arguments) ?? SubcommandSuggestion.error(for: arguments) ?? error))
        }
        let json = (command as? any GlobalOptionsCommand)?.global.json ?? false
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch {
            await OpenRiders.shared.closeAll()
            let global = (command as? any GlobalOptionsCommand)?.global
            exit(ErrorReport(json: json).report(namingGivenToken(await namingStoredServers(error, server: global?.server))))
        }
        await OpenRiders.shared.closeAll()
        exit(ExitStatus.success.rawValue)
    }

    /// `rider login --with-token` did not parse: say what it takes without quoting the arguments,
    /// which may hold the token (ArgumentParser's own message would repeat it).
    static func tokenOnCommandLine(_ arguments: [String]) -> CLIError? {
        guard arguments.contains(where: { $0 == "--with-token" || $0.hasPrefix("--with-token=") }) else { return nil }
        return CLIError.usage("--with-token takes no value and no other sign-in option: it reads the access token from "
            + "standard input, never from the command line, where every user on the machine can read it (for example "
            + "`rider login --with-token < token.txt`).")
    }

    /// A session of `RIDER_TOKEN` ended: the server refused that token, which nothing renews, and
    /// the fix is a new one in the variable (the library says so in its own terms).
    static func namingGivenToken(_ error: any Error) -> any Error {
        // `cannotRenew` is not a refusal: the token stands, only a renewal was asked of it.
        guard let error = error as? RiderError, error.code == .sessionExpired, error != .cannotRenew,
              CommandContext.givenToken() != nil else { return error }
        let variable = CommandContext.tokenVariable
        return RiderError(code: .sessionExpired, message: "The server refused the access token in \(variable) (expired, "
            + "revoked, or not one of its tokens); it is never renewed. Put a fresh token in \(variable), or unset it "
            + "to use the stored session.")
    }

    /// Not signed in on a server given with `--server`: the message names the servers that do
    /// have sessions here, so a mistyped or stale address is told apart from a signed-out one.
    static func namingStoredServers(_ error: any Error, server: String?) async -> any Error {
        guard let error = error as? RiderError, error.code == .notSignedIn,
              let asked = server.flatMap(URL.init(string:)).flatMap({ try? APIConfiguration(baseURL: $0).origin })
        else { return error }
        var stored: [String] = []
        for (registry, _) in FileAccountRegistry.stored(in: XDGDirectories()) where registry.server != asked {
            let accounts = (try? await registry.accounts()) ?? []
            if !accounts.isEmpty {
                stored.append("\(accounts.map(\.displayName).joined(separator: ", ")) on \(registry.server)")
            }
        }
        guard !stored.isEmpty else { return error }
        return RiderError(code: .notSignedIn, message: "You are not logged in on \(asked). Sessions are stored for "
            + stored.joined(separator: "; ") + ". Run `rider login --server \(asked)`, or pass one of those servers.",
                          detail: stored.joined(separator: "; "))
    }
}

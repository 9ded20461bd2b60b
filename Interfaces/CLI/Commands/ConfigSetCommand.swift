import ArgumentParser
import Foundation
import RiderKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rider config set KEY VALUE`: checks one setting and writes it into the config file.
struct ConfigSetCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Check a setting's value and write it into the config file.",
        discussion: """
            The value is checked as RiderKit checks it when it starts (base_url an https URL, \
            or http on loopback; timeout 1 to 600 seconds; vault automatic, secret-service, \
            encrypted-file, file:/path or memory; cache sqlite, sqlite:/path or memory; …) and \
            nothing is written when it is refused. Numbers and true/false are written as JSON \
            numbers and booleans. Other keys in the file are kept; one rider does not know (a typo: \
            rider refuses to start while the file has it) is named on standard error. The folder is created 0700 \
            and the file written 0600, through a temporary file renamed over the old one; a file \
            that is not a JSON object is never replaced (exit 10). Nor is one that another user \
            could change, or one in a folder they could change (exit 10, naming the chmod to \
            run): a symbolic link there may have been planted, so it is never followed.

            client_secret is not taken from the command line (ps and shell history would keep \
            it): pipe it in with --value-stdin, or leave the value out at a terminal to be \
            asked for it without echo. An environment variable for the same setting \
            still wins over the file; `rider config show` says which applies.

            Keys: base_url, token_path, me_path, revoke_path, client_id, client_secret, \
            client_auth, scope, dpop, listen, timeout, vault, keyring_timeout, vault_unlock_timeout, cache, cache_ttl, \
            cache_max_users, cache_keep_on_logout.

            Examples:
              rider config set base_url https://api.example.com
              rider config set vault encrypted-file
              rider config set cache_keep_on_logout true
              printf '%s' "$SECRET" | rider config set client_secret --value-stdin
            """
    )

    @Argument(help: ArgumentHelp("A setting `rider config show` lists, e.g. timeout.", valueName: "key"),
              completion: .list(ConfigKey.names))
    var key: String

    @Argument(help: ArgumentHelp("The new value (not for client_secret: use --value-stdin).", valueName: "value"))
    var value: String?

    @Flag(name: .long, help: "Read the value from the first line of standard input instead.")
    var valueStdin = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        if value != nil, valueStdin {
            throw ValidationError("Give the value either after the key or with --value-stdin, not both.")
        }
    }

    func run() async throws {
        guard let setting = ConfigKey.named(key) else { throw ConfigError.unknownKey(key) }
        let text: String
        if valueStdin {
            // Typing a secret into --value-stdin would show it on the screen as it is typed.
            if setting.isSecret, isatty(STDIN_FILENO) == 1 { throw ConfigError.secretFromTerminal(key: setting.rawValue) }
            guard let line = try LineInput.readLine(from: STDIN_FILENO) else {
                throw ConfigError.missingValue(key: setting.rawValue)
            }
            text = line
        } else if let value {
            guard !setting.isSecret else { throw ConfigError.secretOnCommandLine(key: setting.rawValue) }
            text = value
        } else if setting.isSecret, isatty(STDIN_FILENO) == 1 {
            // At a terminal a secret is asked for without echo, as a password is.
            text = try TerminalInput.readLine(prompt: "\(setting.rawValue): ", echo: false,
                                              hint: "pipe it in with --value-stdin")
        } else {
            throw ConfigError.missingValue(key: setting.rawValue)
        }
        try setting.check(text)

        let environment = ProcessInfo.processInfo.environment
        var document = try ConfigFileDocument(reading: ConfigFileDocument.location(environment: environment))
        document.set(setting, to: text)
        try document.write()

        let output = ConfigChangeOutput(action: "set", key: setting.rawValue, value: setting.isSecret ? nil : text,
                                        file: document.file.path, unknownKeys: document.unknownKeys)
        try output.print(json: global.json)
        if !global.json, let overriding = environment[setting.environmentVariable], !overriding.isEmpty {
            Console.standardError("rider: note: \(setting.environmentVariable) is set and wins over the file.")
        }
    }
}

import Foundation
import RiderKit

/// Why `rider config` refused: each message names the key or file and says what to do.
enum ConfigError: Error, LocalizedError, Sendable, Equatable {
    /// No such setting (exit 2).
    case unknownKey(String)
    /// The value is not one the setting takes (exit 9); `reason` is RiderKit's own check.
    case invalidValue(key: String, reason: String)
    /// A secret was given on the command line, where `ps` and shell history would keep it (exit 2).
    case secretOnCommandLine(key: String)
    /// A secret asked for with --value-stdin while standard input is a terminal, which would
    /// echo it on the screen as it is typed (exit 2).
    case secretFromTerminal(key: String)
    /// No value given, neither as an argument nor with --value-stdin (exit 2).
    case missingValue(key: String)
    /// The file is not a JSON object; it is left as it is (exit 10).
    case unparseableFile(path: String)
    /// The file or its folder could not be written (exit 11).
    case cannotWrite(path: String, reason: String)
    /// `rider config get` of a setting nothing sets and that has no default (exit 1, as
    /// `git config --get`).
    case notSet(key: String)

    var errorDescription: String? {
        switch self {
        case .unknownKey(let key):
            let nearest = ConfigKey.nearest(to: key)
            return "'\(key)' is not a rider setting." + (nearest.map { " Did you mean \($0)?" } ?? "")
                + " Known settings: \(ConfigKey.names.joined(separator: ", "))."
        case .invalidValue(let key, let reason):
            return "Invalid value for \(key): \(reason). The config file was not changed."
        case .secretOnCommandLine(let key):
            return "\(key) is a secret and is not taken from the command line, where ps and shell history "
                + "would keep it. Pipe it in instead: printf '%s' \"$SECRET\" | rider config set \(key) --value-stdin"
        case .secretFromTerminal(let key):
            return "\(key) is a secret and standard input is a terminal, which would show it as you type. "
                + "Pipe it in instead: printf '%s' \"$SECRET\" | rider config set \(key) --value-stdin "
                + "(or redirect a file: rider config set \(key) --value-stdin < secret.txt)"
        case .missingValue(let key):
            return "No value for \(key): give it after the key, or pipe it in with --value-stdin."
        case .unparseableFile(let path):
            return "The config file \(path) is not a JSON object, so rider will not overwrite it. "
                + "Fix it by hand, or move it aside and run the command again."
        case .cannotWrite(let path, let reason):
            return "The config file \(path) could not be written: \(reason). It was left as it was."
        case .notSet(let key):
            return "\(key) is not set and has no default."
        }
    }

    /// The documented exit code.
    var exitStatus: ExitStatus {
        switch self {
        case .unknownKey, .secretOnCommandLine, .secretFromTerminal, .missingValue: return .usage
        case .invalidValue: return .inputRejected
        case .unparseableFile: return .configuration
        case .cannotWrite: return .storage
        case .notSet: return .failure
        }
    }

    /// The `code` of the `--json` error.
    var code: String {
        switch exitStatus {
        case .usage: return "usage"
        case .inputRejected: return "invalid_input"
        case .configuration: return "invalid_configuration"
        case .failure: return "not_set"
        default: return "storage"
        }
    }
}

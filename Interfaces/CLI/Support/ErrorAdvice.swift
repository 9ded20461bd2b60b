import Foundation
import RiderDomain

/// What `rider` tells a person to do about an error, in its own commands and settings.
///
/// The library's messages say what is wrong in the library's terms (an embedding program shows
/// them too, and has no `rider login`); the remedy it attaches says what would resolve it, and
/// this names the `rider` command or setting that does.
enum ErrorAdvice {
    /// The advice for `remedy`, as a clause that can follow the message.
    /// - Parameter environment: says where a vault passphrase came from (a variable, or the terminal).
    static func text(for remedy: RiderError.Remedy,
                     environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        switch remedy {
        case .signIn:
            "run `rider login`"
        case .signInWithoutPassword(let browser, let deviceCode):
            "use " + [(browser, "`rider login --web`"), (deviceCode, "`rider login --device`")]
                .filter(\.0).map(\.1).joined(separator: " or ")
        case .nameProviderToSignInWithoutPassword:
            "set issuer to the provider's address (`rider config set issuer URL` or RIDER_ISSUER), then run "
                + "`rider login`, which signs in with the browser or a device code"
        case .setClientID:
            "set client_id (`rider config set client_id …` or RIDER_CLIENT_ID)"
        case .givePassphrase:
            "set RIDER_VAULT_PASSPHRASE, point RIDER_VAULT_PASSPHRASE_FILE at a 0600 file holding it, or run "
                + "rider in a terminal to be asked"
        case .checkPassphrase:
            // Without either variable the passphrase was typed, and asked for again already.
            environment["RIDER_VAULT_PASSPHRASE", default: ""].isEmpty
                && environment["RIDER_VAULT_PASSPHRASE_FILE", default: ""].isEmpty
                ? "if the passphrase is forgotten, `rider vault reset` removes the file (and the session in it), then "
                    + "`rider login` signs in again"
                : "check RIDER_VAULT_PASSPHRASE or the passphrase file"
        case .resetVault:
            "`rider vault reset` removes it, then `rider login`"
        case .adoptOrResetVault:
            "`rider vault adopt` binds it to this server, else `rider vault reset` and `rider login`"
        case .cacheInMemory:
            "or set RIDER_CACHE=memory"
        case .clearCache:
            "`rider cache clear` starts it afresh"
        case .listSports:
            "see `rider sports list`"
        case .readWhileOnline:
            "run `rider whoami` online once"
        }
    }

    /// `error`'s message followed by `rider`'s advice, when it has a remedy: after a sentence as a
    /// sentence of its own, else as a clause (after a comma when it is an alternative).
    static func message(for error: RiderError) -> String {
        message(for: error, environment: ProcessInfo.processInfo.environment)
    }

    /// `error`'s message and advice, for a passphrase that came from `environment` or the terminal.
    static func message(for error: RiderError, environment: [String: String]) -> String {
        guard let remedy = error.remedy else { return error.message }
        let advice = text(for: remedy, environment: environment)
        let alternative = advice.hasPrefix("or ")
        guard error.message.hasSuffix(".") else { return error.message + (alternative ? ", " : "; ") + advice }
        if alternative { return error.message.dropLast() + ", " + advice + "." }
        return error.message + " " + advice.prefix(1).uppercased() + advice.dropFirst() + "."
    }
}

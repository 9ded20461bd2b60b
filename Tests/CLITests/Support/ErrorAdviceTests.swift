import Foundation
@testable import RiderCLI
import RiderDomain
import RiderInfrastructure
import Testing

/// The library's messages say what is wrong in its own terms; `rider` adds the command or setting
/// that helps, from the remedy the error carries.
@Suite("CLI: rider's advice after library errors")
struct ErrorAdviceTests {
    @Test("signed out or expired: the library says so, rider adds `rider login`")
    func signIn() {
        #expect(RiderError.notSignedIn.message == "You are not signed in.")
        #expect(ErrorAdvice.message(for: .notSignedIn) == "You are not signed in. Run `rider login`.")
        #expect(ErrorAdvice.message(for: .sessionExpired)
            == "Your session has expired; sign in again. Run `rider login`.")
        #expect(ErrorAdvice.message(for: .unknownAccount("ana@example.com", server: "https://api.example.com", stored: []))
            .hasSuffix("no account is signed in there. Run `rider login`."))
        #expect(!ErrorAdvice.message(for: .unknownAccount("ana", server: "https://api.example.com", stored: ["bo"]))
            .contains("rider login"), "with stored accounts the message names them instead")
    }

    @Test("vault errors get rider's vault commands and settings", arguments: [
        (VaultError.passphraseRequired, "set RIDER_VAULT_PASSPHRASE, point RIDER_VAULT_PASSPHRASE_FILE"),
        (.wrongPassphrase(file: "/s.vault"), "check RIDER_VAULT_PASSPHRASE or the passphrase file"),
        (.corrupted(file: "/s.vault", detail: "bad tag"), "`rider vault reset` removes it, then `rider login`"),
        (.unreadableSecret(detail: "not JSON"), "`rider vault reset` removes it"),
        (.unboundSession(file: "/s.vault", requested: "https://api.example.com"),
         "`rider vault adopt` binds it to this server, else `rider vault reset` and `rider login`"),
    ])
    func vault(error: VaultError, advice: String) {
        #expect(!error.message.contains("`rider") && !error.message.contains("RIDER_"), "\(error.message)")
        let shown = ErrorAdvice.message(for: error.riderError, environment: ["RIDER_VAULT_PASSPHRASE": "set"])
        #expect(shown.hasPrefix(error.riderError.message), "the library's sentence comes first")
        #expect(shown.localizedCaseInsensitiveContains(advice), "\(shown)")
    }

    @Test("a typed passphrase that does not open the file: rider names vault reset for a forgotten one, and no variable")
    func typedPassphrase() {
        let shown = ErrorAdvice.message(for: VaultError.wrongPassphrase(file: "/s.vault").riderError, environment: [:])
        #expect(shown.hasSuffix("the passphrase does not open /s.vault; the file was not changed. If the passphrase is "
            + "forgotten, `rider vault reset` removes the file (and the session in it), then `rider login` signs in again."),
            "\(shown)")
        #expect(!shown.contains("RIDER_"), "the passphrase was typed: \(shown)")
        let fromFile = ErrorAdvice.message(for: VaultError.wrongPassphrase(file: "/s.vault").riderError,
                                           environment: ["RIDER_VAULT_PASSPHRASE_FILE": "/p"])
        #expect(fromFile.hasSuffix("Check RIDER_VAULT_PASSPHRASE or the passphrase file."), "\(fromFile)")
    }

    @Test("the other remedies name the command or setting that helps", arguments: [
        (RiderError.Remedy.signInWithoutPassword(browser: true, deviceCode: true),
         "use `rider login --web` or `rider login --device`"),
        (.signInWithoutPassword(browser: false, deviceCode: true), "use `rider login --device`"),
        (.setClientID, "RIDER_CLIENT_ID"),
        (.nameProviderToSignInWithoutPassword, "set issuer to the provider's address (`rider config set issuer URL` or "
            + "RIDER_ISSUER), then run `rider login`"),
        (.cacheInMemory, "or set RIDER_CACHE=memory"),
        (.clearCache, "`rider cache clear` starts it afresh"),
        (.listSports, "see `rider sports list`"),
        (.readWhileOnline, "run `rider whoami` online once"),
    ])
    func remedies(remedy: RiderError.Remedy, advice: String) {
        #expect(ErrorAdvice.text(for: remedy) == advice || ErrorAdvice.text(for: remedy).contains(advice))
        let error = RiderError.storage("the user cache /c/users.sqlite is read-only").suggesting(remedy)
        #expect(ErrorAdvice.message(for: error).localizedCaseInsensitiveContains(advice))
    }

    @Test("an alternative follows the library's clause after a comma, other advice after a semicolon")
    func joining() {
        let readOnly = RiderError(code: .storage, message: "the user cache /c is read-only; fix its permissions")
        #expect(ErrorAdvice.message(for: readOnly.suggesting(.cacheInMemory))
            == "the user cache /c is read-only; fix its permissions, or set RIDER_CACHE=memory")
        #expect(ErrorAdvice.message(for: readOnly.suggesting(.clearCache))
            == "the user cache /c is read-only; fix its permissions; `rider cache clear` starts it afresh")
        #expect(ErrorAdvice.message(for: readOnly) == readOnly.message, "no remedy, no advice")
        #expect(ErrorAdvice.message(for: RiderError.storage("the user cache /c is read-only").suggesting(.cacheInMemory))
            .hasSuffix("read-only, or set RIDER_CACHE=memory."), "an alternative stays in the sentence")
    }
}

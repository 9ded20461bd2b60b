import Foundation
import RiderInfrastructure
import RiderKit
import Testing

@Suite("Choosing the vault")
struct VaultChoiceTests {
    @Test("every documented vault setting parses, and anything else is refused",
          arguments: [
              ("automatic", VaultChoice.automatic), ("auto", .automatic), ("secret-service", .secretService),
              ("encrypted-file", .encryptedFile(nil)), ("file", .encryptedFile(nil)), ("memory", .memory),
              ("file:/var/lib/rider/session.vault", .encryptedFile(URL(fileURLWithPath: "/var/lib/rider/session.vault"))),
          ])
    func parses(setting: String, choice: VaultChoice) {
        #expect(VaultChoice(setting: setting) == choice)
        #expect(VaultChoice(setting: choice.setting) == choice)
    }

    @Test("unknown or relative settings are refused", arguments: ["keychain", "file:relative/path", "", "temporary-file"])
    func refuses(setting: String) {
        #expect(VaultChoice(setting: setting) == nil)
    }

    @Test("the default is automatic with a 2 s keyring timeout; RIDER_KEYRING_TIMEOUT and the passphrase come from the environment")
    func defaultsAndEnvironment() async throws {
        var environment = ["HOME": "/nonexistent-home", "RIDER_BASE_URL": "https://api.example.com"]
        let defaults = try RiderKit.Configuration.load(environment: environment)
        #expect(defaults.vault == .automatic)
        #expect(defaults.keyringTimeout == .seconds(2))
        await #expect(throws: VaultError.passphraseRequired) { try await defaults.vaultPassphrase.get() }

        environment["RIDER_KEYRING_TIMEOUT"] = "0.5"
        environment["RIDER_VAULT_PASSPHRASE"] = "from the environment"
        let configured = try RiderKit.Configuration.load(environment: environment)
        #expect(configured.keyringTimeout == .milliseconds(500))
        #expect(try await configured.vaultPassphrase.get() == "from the environment")

        environment["RIDER_KEYRING_TIMEOUT"] = "forever"
        let refusal = #expect(throws: RiderError.self) { try RiderKit.Configuration.load(environment: environment) }
        #expect(refusal?.code == .invalidConfiguration && refusal?.message.contains("keyring timeout 'forever'") == true,
                "\(String(describing: refusal?.message))")
    }

    @Test("the factory puts the encrypted file under the XDG state folder, per server, or at the configured path")
    func fileLocation() throws {
        let environment = ["HOME": "/home/ada", "XDG_STATE_HOME": "/state", "RIDER_BASE_URL": "http://127.0.0.1:8080"]
        var configuration = try RiderKit.Configuration.load(environment: environment)
        let folder = XDGDirectories.folderName(forOrigin: "http://127.0.0.1:8080")
        #expect(folder.hasPrefix("http-127.0.0.1-8080-"))
        #expect(VaultFactory(configuration: configuration).encryptedFile().file.path
                    == "/state/rider/\(folder)/session.vault")
        configuration.vault = .encryptedFile(URL(fileURLWithPath: "/elsewhere/s.vault"))
        #expect(VaultFactory(configuration: configuration).encryptedFile().file.path == "/elsewhere/s.vault")
        #expect(VaultFactory(configuration: configuration).make() is EncryptedFileTokenVault)
    }

    @Test("forced choices are reported with the setting as their reason, without probing anything")
    func forcedSelection() async throws {
        var configuration = try RiderKit.Configuration.load(
            environment: ["HOME": "/nonexistent-home", "RIDER_BASE_URL": "https://api.example.com", "RIDER_VAULT": "memory"])
        #expect(await VaultFactory(configuration: configuration).select().backend == .memory)
        configuration.vault = .encryptedFile(nil)
        let selection = await VaultFactory(configuration: configuration).select()
        #expect(selection.backend == .encryptedFile(nil))
        #expect(selection.reason.contains("encrypted-file"))
    }
}

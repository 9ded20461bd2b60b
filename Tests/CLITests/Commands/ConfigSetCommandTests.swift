import ArgumentParser
import Foundation
@testable import RiderCLI
import RiderKit
import Testing

@Suite("CLI rider config set: values are checked by RiderKit's own rules")
struct ConfigSetCommandTests {
    @Test("values RiderKit accepts pass", arguments: [
        ("base_url", "https://api.example.com"), ("base_url", "http://127.0.0.1:8080"), ("timeout", "30"),
        ("vault", "encrypted-file"), ("vault", "file:/tmp/session.vault"), ("cache", "memory"),
        ("cache", "sqlite:/tmp/users.sqlite"), ("cache_ttl", "0"), ("cache_max_users", "1000"),
        ("cache_keep_on_logout", "true"), ("client_auth", "body"), ("keyring_timeout", "0.5"), ("scope", "read"),
    ])
    func acceptsGoodValues(key: String, value: String) throws {
        try #require(ConfigKey.named(key)).check(value)
    }

    @Test("values RiderKit refuses fail with a typed error naming the key and saying why", arguments: [
        ("base_url", "ftp://files.example.com", "scheme 'ftp'"), ("base_url", "http://api.example.com", "https"),
        ("base_url", "not a url", "base_url"), ("timeout", "0", "1 to 600"), ("timeout", "soon", "1 to 600"),
        ("vault", "safe", "automatic"), ("cache", "redis", "sqlite"), ("cache_max_users", "1.5", "whole number"),
        ("cache_keep_on_logout", "maybe", "true or false"), ("client_auth", "digest", "basic"),
        ("keyring_timeout", "120", "60"),
    ])
    func refusesBadValues(key: String, value: String, hint: String) throws {
        let setting = try #require(ConfigKey.named(key))
        do {
            try setting.check(value)
            Issue.record("\(key) = \(value) was accepted")
        } catch let error as ConfigError {
            guard case .invalidValue(let named, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(named == key)
            #expect(error.localizedDescription.contains(hint), "\(error.localizedDescription)")
            #expect(!reason.isEmpty && error.exitStatus == .inputRejected)
        }
    }

    @Test("an unknown key is a usage error that lists every known key")
    func unknownKey() {
        #expect(ConfigKey.named("base_uri") == nil)
        #expect(ConfigKey.named("BASE_URL") == .baseURL)
        let error = ConfigError.unknownKey("base_uri")
        #expect(error.exitStatus == .usage && error.code == "usage")
        for name in ConfigKey.names {
            #expect(error.localizedDescription.contains(name))
        }
    }

    @Test("client_secret is refused on the command line and never echoed back")
    func secretNotOnCommandLine() throws {
        #expect(ConfigKey.clientSecret.isSecret)
        let command = try ConfigSetCommand.parse(["client_secret", "s3cr3t-value"])
        let error = ConfigError.secretOnCommandLine(key: "client_secret")
        #expect(error.localizedDescription.contains("--value-stdin") && !error.localizedDescription.contains("s3cr3t"))
        #expect(command.value == "s3cr3t-value")
        let output = ConfigChangeOutput(action: "set", key: "client_secret", value: nil, file: "/c.json")
        #expect(output.lines == ["set client_secret = <redacted> in /c.json"])
    }

    @Test("client_secret --value-stdin on a terminal is a usage error that says how to pipe it in")
    func secretNotTypedAtTerminal() {
        let error = ConfigError.secretFromTerminal(key: "client_secret")
        #expect(error.exitStatus == .usage && error.code == "usage")
        let message = error.localizedDescription
        #expect(message.contains("terminal"), "\(message)")
        #expect(message.contains("| rider config set client_secret --value-stdin"), "\(message)")
        #expect(message.contains("--value-stdin < "), "\(message)")
    }
}

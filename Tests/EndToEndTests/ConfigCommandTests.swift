import Foundation
import RiderApplication
import RiderReferenceServer
import Testing
import TestSupport

@Suite("rider CLI: config show, set and unset")
struct ConfigCommandTests {
    private func configFile(_ sandbox: Sandbox) -> URL {
        sandbox.root.appendingPathComponent("home/.config/rider/config.json")
    }

    @Test("set writes the XDG config file that rider then reads: login and search work with no RIDER_BASE_URL")
    func setThenUse() async throws {
        // rider's default timeout, so `config show` can say where it comes from.
        let sandbox = try Sandbox(server: nil, requestTimeout: nil)
        defer { sandbox.remove() }
        try await withReferenceServer(ReferenceServerConfiguration(seedUsers: 30, accessTokenTTL: .seconds(3600))) { server in
            let unset = try await sandbox.rider("users", "search", "jo")
            #expect(unset.status == 10, "no server configured yet: \(unset)")

            let set = try await sandbox.rider("config", "set", "base_url", server.baseURL.absoluteString)
            #expect(set.status == 0, "\(set)")
            #expect(set.stdout.contains("set base_url = \(server.baseURL.absoluteString)"))
            #expect(try await sandbox.rider("config", "set", "timeout", "30").status == 0)

            let file = configFile(sandbox)
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect(attributes[.posixPermissions] as? Int == 0o600)
            let folder = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)
            #expect(folder[.posixPermissions] as? Int == 0o700)

            #expect(try await sandbox.loginAsDemo().status == 0)
            let search = try await sandbox.rider("users", "search", "demo")
            #expect(search.status == 0, "\(search)")

            let show = try await sandbox.rider(["config", "show", "--json"], environment: ["RIDER_TIMEOUT": "9"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
            let settings = try #require(object["settings"] as? [[String: Any]])
            let byKey = Dictionary(uniqueKeysWithValues: settings.compactMap { s in (s["key"] as? String).map { ($0, s) } })
            #expect(byKey["base_url"]?["source"] as? String == "file")
            // Numbers and booleans as JSON numbers and booleans, as the file writes them (issue 35, item 6).
            #expect(byKey["timeout"]?["value"] as? Int == 9, "\(show)")
            #expect(show.stdout.contains(#""key":"timeout","problem":null,"secret":false,"set":true,"source":"environment","value":9}"#),
                    "\(show)")
            #expect(show.stdout.contains(#""key":"cache_keep_on_logout","problem":null,"secret":false,"set":true,"#
                + #""source":"default","value":false}"#), "\(show)")
            #expect(show.stdout.contains(#""key":"cache_max_users","problem":null,"secret":false,"set":true,"#
                + #""source":"default","value":"#) && !show.stdout.contains(#""source":"default","value":"1"#), "\(show)")
            #expect(byKey["timeout"]?["source"] as? String == "environment")
            #expect(byKey["vault"]?["source"] as? String == "default")
            #expect(object["file"] as? String == file.path)

            let unsetTimeout = try await sandbox.rider("config", "unset", "timeout")
            #expect(unsetTimeout.status == 0, "\(unsetTimeout)")
            let plain = try await sandbox.rider("config", "show")
            #expect(plain.lines.contains { $0.hasPrefix("timeout") && $0.hasSuffix("default") }, "\(plain)")
            #expect(!plain.stdout.contains("\u{1B}"), "no escapes when piped")
        }
    }

    @Test("client_secret is taken only from stdin and never printed by set, show or show --json")
    func secretNeverPrinted() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let secret = "cli-secret-\(UUID().uuidString)"
        let onArgv = try await sandbox.rider("config", "set", "client_secret", secret)
        #expect(onArgv.status == 2, "\(onArgv)")
        #expect(!FileManager.default.fileExists(atPath: configFile(sandbox).path), "nothing written")

        let piped = try await sandbox.rider("config", "set", "client_secret", "--value-stdin", stdin: secret + "\n")
        #expect(piped.status == 0, "\(piped)")
        #expect(try String(contentsOf: configFile(sandbox), encoding: .utf8).contains(secret), "it was stored")
        let show = try await sandbox.rider("config", "show")
        #expect(show.lines.contains { $0.hasPrefix("client_secret") && $0.contains("<redacted>") }, "\(show)")
        _ = try await sandbox.rider("config", "show", "--json")
        _ = try await sandbox.rider(["config", "show"], environment: ["RIDER_CLIENT_SECRET": secret + "-env"])
        for output in await sandbox.transcript.outputs {
            #expect(!output.contains(secret), "the client secret was printed")
        }
    }

    @Test("bad keys and values are refused with their exit codes, and a file rider cannot parse is never replaced")
    func refusals() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let unknown = try await sandbox.rider("config", "set", "colour", "red")
        #expect(unknown.status == 2 && unknown.stderr.contains("base_url"), "lists the known keys: \(unknown)")
        let badURL = try await sandbox.rider("--json", "config", "set", "base_url", "ftp://example.com")
        #expect(badURL.status == 9, "\(badURL)")
        #expect(badURL.stderr.contains("\"code\":\"invalid_input\""), "\(badURL)")
        #expect(try await sandbox.rider("config", "set", "vault", "cloud").status == 9)
        // A negative number needs `--` so it is not read as an option.
        #expect(try await sandbox.rider("config", "set", "timeout", "--", "-1").status == 9)

        let file = configFile(sandbox)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let broken = "{\"base_url\": \"https://api.example.com\", // my server\n}"
        try Data(broken.utf8).write(to: file)
        let set = try await sandbox.rider("config", "set", "timeout", "20")
        #expect(set.status == 10, "\(set)")
        #expect(set.stderr.contains(file.path), "names the file: \(set)")
        #expect(try String(contentsOf: file, encoding: .utf8) == broken, "the user's file is untouched")
        #expect(try await sandbox.rider("config", "unset", "timeout").status == 10)
        #expect(try await sandbox.rider("config", "show").status == 10)
    }

    @Test("a file rider cannot use says where: broken JSON by line and column, a wrong type by key, a typo with the key meant; set and unset keep a typo but say so")
    func fileProblemsNamed() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let file = configFile(sandbox)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        func write(_ text: String) throws {
            try Data(text.utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }

        try write("{\"timeout\": 20,\n  \"vault\": }\n")
        let broken = try await sandbox.rider("whoami")
        #expect(broken.status == 10 && broken.stderr.contains("line 2, column"), "\(broken)")
        try write(#"{"issuer": 5}"#)
        let wrongType = try await sandbox.rider("whoami")
        #expect(wrongType.status == 10 && wrongType.stderr.contains("issuer"), "\(wrongType)")

        try write(#"{"timout": 20}"#)
        let typo = try await sandbox.rider("whoami")
        #expect(typo.status == 10 && typo.stderr.contains("did you mean timeout?"), "\(typo)")
        let set = try await sandbox.rider("config", "set", "timeout", "25")
        #expect(set.status == 0, "the setting is written: \(set)")
        #expect(set.stderr.contains("'timout' (did you mean timeout?)") && set.stderr.contains("rider config unset timout"),
                "and the typo beside it is named, with what removes it: \(set)")
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(keys["timeout"] as? Int == 25 && keys["timout"] as? Int == 20, "nothing is removed unasked")
        let json = try await sandbox.rider("--json", "config", "set", "timeout", "26")
        #expect(json.stdout.contains(#""unknown_keys":["timout"]"#) && json.stderr.isEmpty, "\(json)")

        let unset = try await sandbox.rider("config", "unset", "timout")
        #expect(unset.status == 0 && !unset.stderr.contains("warning"), "\(unset)")
        let left = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(left.keys.sorted() == ["timeout"] && left["timeout"] as? Int == 26, "\(left)")
    }

    @Test("config get prints one effective value for scripts; unset is exit 1, a typo names the key meant, a secret is never printed")
    func getOneSetting() async throws {
        let sandbox = try Sandbox(server: URL(string: "http://127.0.0.1:9"), requestTimeout: nil)
        defer { sandbox.remove() }
        let base = try await sandbox.rider("config", "get", "base_url")
        #expect(base.status == 0 && base.stdout == "http://127.0.0.1:9\n", "\(base)")
        let timeout = try await sandbox.rider("config", "get", "timeout")
        #expect(timeout.status == 0 && timeout.stdout == "15\n", "the default: \(timeout)")
        let unset = try await sandbox.rider("config", "get", "scope")
        #expect(unset.status == 1 && unset.stdout.isEmpty, "\(unset)")
        let typo = try await sandbox.rider("config", "get", "timout")
        #expect(typo.status == 2 && typo.stderr.contains("Did you mean timeout?"), "\(typo)")
        let secret = try await sandbox.rider(["config", "get", "client_secret"],
                                             environment: ["RIDER_CLIENT_SECRET": "never-printed-secret"])
        #expect(secret.status == 0 && secret.stderr.contains("is set"), "\(secret)")
        #expect(!secret.stdout.contains("never-printed-secret") && !secret.stderr.contains("never-printed-secret"))
    }

    @Test("a mistyped subcommand is named with the one meant (exit 2); --version prints the release")
    func typosAndVersion() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        for (arguments, meant) in [(["logn"], "rider login"), (["session", "lst"], "rider session list"),
                                   (["help", "sesion"], "rider session")] {
            let run = try await sandbox.rider(arguments, environment: [:])
            #expect(run.status == 2 && run.stderr.contains("Did you mean `\(meant)`?"), "\(run)")
        }
        let version = try await sandbox.rider("--version")
        #expect(version.status == 0 && version.stdout == "\(RequestIdentity.libraryVersion)\n", "\(version)")
        #expect(ReferenceServer.version == RequestIdentity.libraryVersion, "rider-server says the same release")
    }
}

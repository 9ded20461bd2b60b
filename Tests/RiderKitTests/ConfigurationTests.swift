import Foundation
import RiderKit
import Testing

@Suite("RiderKit.Configuration from environment and config file")
struct ConfigurationTests {
    /// A throwaway HOME with an optional config file.
    struct Home {
        let url: URL
        init(config: String? = nil) throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("riderkit-config-\(UUID().uuidString)")
            let folder = url.appendingPathComponent(".config/rider")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if let config { try Data(config.utf8).write(to: folder.appendingPathComponent("config.json")) }
        }
        var environment: [String: String] { ["HOME": url.path] }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    @Test("the environment alone configures the API")
    func environmentOnly() throws {
        let home = try Home()
        defer { home.remove() }
        var environment = home.environment
        environment["RIDER_BASE_URL"] = "https://api.example.com/v1"
        environment["RIDER_CLIENT_ID"] = "rider-cli"
        environment["RIDER_CLIENT_AUTH"] = "body"
        environment["RIDER_TOKEN_PATH"] = "/oauth/token"
        environment["RIDER_TIMEOUT"] = "7"
        environment["RIDER_VAULT"] = "memory"

        let configuration = try RiderKit.Configuration.load(environment: environment)

        #expect(configuration.api.baseURL.absoluteString == "https://api.example.com/v1")
        #expect(configuration.api.clientID == "rider-cli")
        #expect(configuration.api.clientAuthentication == .requestBody)
        #expect(configuration.api.tokenPath == "/oauth/token")
        #expect(configuration.api.requestTimeout == 7)
        #expect(configuration.vault == .memory)
        #expect(try configuration.api.url(for: "/users").absoluteString == "https://api.example.com/v1/users")
    }

    @Test("dpop is auto unless set; required and off are taken in any case; anything else is refused")
    func dpopSetting() throws {
        let home = try Home()
        defer { home.remove() }
        var environment = home.environment
        environment["RIDER_BASE_URL"] = "https://api.example.com"
        environment["RIDER_VAULT"] = "memory"
        #expect(try RiderKit.Configuration.load(environment: environment).api.dpop == .auto)
        environment["RIDER_DPOP"] = "Required"
        #expect(try RiderKit.Configuration.load(environment: environment).api.dpop == .required)
        environment["RIDER_DPOP"] = "off"
        #expect(try RiderKit.Configuration.load(environment: environment).api.dpop == .off)
        environment["RIDER_DPOP"] = "sometimes"
        let refusal = #expect(throws: RiderError.self) { try RiderKit.Configuration.load(environment: environment) }
        #expect(refusal?.code == .invalidConfiguration)
        #expect(refusal?.message.contains("'auto', 'required' or 'off'") == true)
    }

    @Test("listen names the loopback addresses a browser sign-in listens on, in order; any other address is refused")
    func listenSetting() throws {
        let home = try Home()
        defer { home.remove() }
        var environment = home.environment
        environment["RIDER_BASE_URL"] = "https://api.example.com"
        environment["RIDER_VAULT"] = "memory"
        #expect(try RiderKit.Configuration.load(environment: environment).listenAddresses.isEmpty)
        environment["RIDER_LISTEN"] = "127.0.0.1:8400 [::1]:8401"
        let addresses = try RiderKit.Configuration.load(environment: environment).listenAddresses
        #expect(addresses.map(\.port) == [8400, 8401])
        environment["RIDER_LISTEN"] = "example.com:80"
        let refusal = #expect(throws: RiderError.self) { try RiderKit.Configuration.load(environment: environment) }
        #expect(refusal?.code == .invalidConfiguration)
    }

    @Test("the config file is read and the environment overrides it")
    func fileThenEnvironment() throws {
        let home = try Home(config: #"{"base_url": "https://file.example.com", "scope": "profile", "timeout": 20}"#)
        defer { home.remove() }

        let fromFile = try RiderKit.Configuration.load(environment: home.environment)
        #expect(fromFile.api.baseURL.host == "file.example.com")
        #expect(fromFile.api.scope == "profile")
        #expect(fromFile.api.requestTimeout == 20)

        var environment = home.environment
        environment["RIDER_BASE_URL"] = "https://env.example.com"
        let overridden = try RiderKit.Configuration.load(environment: environment)
        #expect(overridden.api.baseURL.host == "env.example.com")
        #expect(overridden.api.scope == "profile")

        let flag = try RiderKit.Configuration.load(environment: environment, baseURL: "http://127.0.0.1:9")
        #expect(flag.api.baseURL.port == 9)
    }

    @Test("no server anywhere is a configuration error that says how to set one")
    func noServer() throws {
        let home = try Home()
        defer { home.remove() }
        #expect {
            try RiderKit.Configuration.load(environment: home.environment)
        } throws: { error in
            guard let riderError = error as? RiderError, riderError.code == .invalidConfiguration, case let message = riderError.detail ?? "" else { return false }
            return message.contains("RIDER_BASE_URL")
        }
    }

    @Test("plain http to a remote host is refused; loopback is allowed")
    func plainHTTP() throws {
        let home = try Home()
        defer { home.remove() }
        var environment = home.environment
        environment["RIDER_BASE_URL"] = "http://api.example.com"
        let refusal = #expect(throws: RiderError.self) { try RiderKit.Configuration.load(environment: environment) }
        #expect(refusal?.code == .invalidConfiguration, "\(String(describing: refusal))")
        environment["RIDER_BASE_URL"] = "http://localhost:8080"
        #expect(try RiderKit.Configuration.load(environment: environment).api.baseURL.port == 8080)
    }

    @Test("a config file with a typo, bad JSON or a bad value is an error naming the file", arguments: [
        #"{"base_ulr": "https://x.example.com"}"#,
        #"{"base_url": "#,
        #"["https://x.example.com"]"#,
        #"{"base_url": "https://x.example.com", "timeout": "soon"}"#,
        #"{"base_url": "https://x.example.com", "client_auth": "digest"}"#,
        #"{"base_url": "https://x.example.com", "vault": "keyring"}"#,
    ])
    func badFile(contents: String) throws {
        let home = try Home(config: contents)
        defer { home.remove() }
        #expect {
            try RiderKit.Configuration.load(environment: home.environment)
        } throws: { error in
            guard let riderError = error as? RiderError, riderError.code == .invalidConfiguration, case let message = riderError.detail ?? "" else { return false }
            return !message.isEmpty
        }
    }

    @Test("a broken config file says where and what: the line and column of bad JSON, the nearest setting to a typo, the setting of the wrong type",
          arguments: [
              ("{\"base_url\": \"https://x.example.com\",\n \"timeout\": }", "(line 2, column 13)"),
              (#"{"base_url": "https://x.example.com", "timout": 5}"#, "timout (did you mean timeout?)"),
              (#"{"base_url": 5}"#, "base_url of the wrong type"),
              (#"{"base_url": "https://x.example.com", "client_id": 12345}"#, "client_id of the wrong type"),
          ])
    func brokenFileSaysWhere(contents: String, said: String) throws {
        let home = try Home(config: contents)
        defer { home.remove() }
        let error = #expect(throws: RiderError.self) { try RiderKit.Configuration.load(environment: home.environment) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.detail?.contains(said) == true, "\(String(describing: error?.detail))")
    }

    @Test("numbers and flags are taken unquoted where the setting is one")
    func numbersAndFlags() throws {
        let home = try Home(config: #"{"base_url": "https://x.example.com", "timeout": 20, "cache_keep_on_logout": true}"#)
        defer { home.remove() }
        #expect(try RiderKit.Configuration.load(environment: home.environment).api.requestTimeout == 20)
    }

    @Test("the client secret is never printed")
    func secretRedacted() throws {
        let home = try Home()
        defer { home.remove() }
        var environment = home.environment
        environment["RIDER_BASE_URL"] = "https://api.example.com"
        environment["RIDER_CLIENT_SECRET"] = "TOP-SECRET-VALUE"
        let configuration = try RiderKit.Configuration.load(environment: environment)
        #expect(configuration.api.clientSecret == "TOP-SECRET-VALUE")
        #expect(!String(describing: configuration.api).contains("TOP-SECRET"))
        #expect(!String(reflecting: configuration.api).contains("TOP-SECRET"))
    }
}

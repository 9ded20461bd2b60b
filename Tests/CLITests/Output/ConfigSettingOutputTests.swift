import ArgumentParser
import Foundation
@testable import RiderCLI
import RiderKit
import Testing

@Suite("CLI rider config show: effective values and their sources")
struct ConfigSettingOutputTests {
    @Test("--server beats RIDER_BASE_URL, which beats the file, which beats the default")
    func precedence() {
        let environment = ["RIDER_BASE_URL": "https://env.example.com", "RIDER_TIMEOUT": ""]
        let option = ConfigSettingOutput(.baseURL, fileValue: "https://file.example.com", environment: environment,
                                         server: "https://option.example.com")
        #expect(option.value == "https://option.example.com" && option.source == .option && option.shownSource == "--server")
        let fromEnvironment = ConfigSettingOutput(.baseURL, fileValue: "https://file.example.com",
                                                  environment: environment, server: nil)
        #expect(fromEnvironment.source == .environment && fromEnvironment.shownSource == "env RIDER_BASE_URL")
        let fromFile = ConfigSettingOutput(.timeout, fileValue: "20", environment: environment, server: nil)
        #expect(fromFile.value == "20" && fromFile.source == .file, "an empty RIDER_TIMEOUT counts as unset, as in RiderKit")
        let fallback = ConfigSettingOutput(.timeout, fileValue: nil, environment: [:], server: nil)
        #expect(fallback.value == "15" && fallback.source == .default)
        let nothing = ConfigSettingOutput(.scope, fileValue: nil, environment: [:], server: nil)
        #expect(nothing.value == nil && !nothing.set && nothing.source == .unset && nothing.shownValue == "-")
    }

    @Test("a password in a URL's userinfo is never shown: the value says <redacted>@, the problem says why")
    func userinfoHidden() throws {
        for (file, server) in [("http://alice:s3cret-pw@127.0.0.1:8080/api", nil),
                               (nil, "https://alice:s3cret-pw@api.example.com")] as [(String?, String?)] {
            let setting = ConfigSettingOutput(.baseURL, fileValue: file, environment: [:], server: server)
            let value = try #require(setting.value)
            #expect(!value.contains("s3cret-pw") && !value.contains("alice"), "\(value)")
            #expect(value.contains("://<redacted>@"), "\(value)")
            #expect(setting.problem != nil && setting.problem?.contains("s3cret-pw") == false,
                    "\(String(describing: setting.problem))")
            let json = String(decoding: try JSONEncoder().encode(setting), as: UTF8.self)
            #expect(!json.contains("s3cret-pw"), "\(json)")
        }
        #expect(ConfigSettingOutput.hidingUserinfo("https://api.example.com/v1") == "https://api.example.com/v1")
        #expect(ConfigSettingOutput.hidingUserinfo("http://u:p@h:1/x?y=1") == "http://<redacted>@h:1/x?y=1")
    }

    @Test("client_secret shows as <redacted> and its value is in neither the lines nor the JSON")
    func secretIsRedacted() throws {
        let secret = "the-client-secret-value"
        for (file, environment) in [(secret, [String: String]()), (nil, ["RIDER_CLIENT_SECRET": secret])] {
            let setting = ConfigSettingOutput(.clientSecret, fileValue: file, environment: environment, server: nil)
            #expect(setting.set && setting.value == nil && setting.shownValue == "<redacted>")
            #expect(!setting.row.joined().contains(secret))
            #expect(!(JSONOutput.string(setting) ?? secret).contains(secret))
        }
    }

    @Test("a value RiderKit will refuse is flagged with RiderKit's reason, in the lines and as \"problem\" in JSON")
    func invalidValueIsFlagged() throws {
        let bad = ConfigSettingOutput(.timeout, fileValue: "soon", environment: [:], server: nil)
        #expect(bad.problem?.contains("1 to 600") == true)
        #expect((JSONOutput.string(bad) ?? "").contains("\"problem\":\"the timeout 'soon'"))
        let good = ConfigSettingOutput(.timeout, fileValue: "20", environment: [:], server: nil)
        #expect(good.problem == nil && (JSONOutput.string(good) ?? "").contains("\"problem\":null"))
        let fromEnvironment = ConfigSettingOutput(.vault, fileValue: nil, environment: ["RIDER_VAULT": "cloud"], server: nil)
        #expect(fromEnvironment.problem != nil)
    }

    @Test("show lists every key RiderKit reads, aligned when piped and titled on a terminal")
    func showLines() throws {
        let document = try ConfigFileDocument(reading: .init(fileURLWithPath: "/nonexistent/rider/config.json"))
        let output = ConfigShowOutput(document, environment: [:], server: nil)
        #expect(output.settings.map(\.key) == ConfigKey.names)
        let plain = output.lines(on: TerminalOutput(color: .auto, isTerminal: false, environment: [:]))
        #expect(plain.count == 1 + ConfigKey.allCases.count)
        // Padded to the longest key, device_authorization_endpoint (29 characters), then two spaces.
        #expect(plain[1].hasPrefix("base_url" + String(repeating: " ", count: 23) + "-"))
        let table = output.lines(on: TerminalOutput(color: .never, isTerminal: true, environment: [:]))
        #expect(table[1].hasPrefix("KEY" + String(repeating: " ", count: 28) + "VALUE"))
    }
}

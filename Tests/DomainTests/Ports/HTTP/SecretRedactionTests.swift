import Foundation
import RiderDomain
import Testing

@Suite("SecretRedaction")
struct SecretRedactionTests {
    /// Replaces each secret with `<field>` so a test sees which rule caught it.
    func naming(_ field: String, _ value: String) -> String { "<\(field)>" }

    func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test("JSON: tokens, passwords and client secrets are replaced at any depth, everything else is kept")
    func json() throws {
        let body = Data("""
            {"access_token":"a1","token_type":"Bearer","expires_in":3600,"refresh_token":"r1",
             "nested":[{"id_token":"i1","password":"pw","client_secret":"cs","name":"Ada"}],"token":"t1"}
            """.utf8)

        let result = try #require(SecretRedaction.redactingJSON(body, replacement: naming))

        #expect(result.redacted == 6)
        #expect(text(result.data) == #"{"access_token":"<access_token>","expires_in":3600,"nested":[{"client_secret":"#
            + #""<client_secret>","id_token":"<id_token>","name":"Ada","password":"<password>"}],"#
            + #""refresh_token":"<refresh_token>","token":"<token>","token_type":"Bearer"}"#)
    }

    @Test("a browser or device sign-in's secrets are redacted too: code, code_verifier, state, nonce, device_code")
    func signInSecrets() {
        let result = SecretRedaction.redactingFields(
            [("grant_type", "authorization_code"), ("code", "c1"), ("redirect_uri", "http://127.0.0.1:1/cb"),
             ("code_verifier", "v1"), ("state", "s1"), ("nonce", "n1"), ("device_code", "d1"), ("user_code", "BCDF-GHJK")],
            replacement: naming)
        #expect(result.pairs.map(\.1) == ["authorization_code", "<code>", "http://127.0.0.1:1/cb", "<code_verifier>",
                                          "<state>", "<nonce>", "<device_code>", "BCDF-GHJK"])
        #expect(SecretRedaction.isTokenField("device_code") && SecretRedaction.isTokenField("code"),
                "sent back later, so a recording keeps one placeholder per value")
        #expect(!SecretRedaction.isTokenField("code_verifier"))
    }

    @Test("JSON: the replacement is given the secret as text, and null is left alone")
    func jsonValues() throws {
        var seen: [String] = []
        let body = Data(#"{"password":1234,"refresh_token":null,"client_secret":{"k":"v"}}"#.utf8)

        let result = try #require(SecretRedaction.redactingJSON(body) { _, value in
            seen.append(value)
            return "x"
        })

        #expect(seen.sorted() == ["1234", #"{"k":"v"}"#])
        #expect(text(result.data) == #"{"client_secret":"x","password":"x","refresh_token":null}"#)
    }

    @Test("JSON without secrets counts none, and a body that is not JSON gives nil")
    func nothingToRedact() throws {
        let page = try #require(SecretRedaction.redactingJSON(Data(#"{"users":[],"total":0}"#.utf8), replacement: naming))
        #expect(page.redacted == 0)
        #expect(SecretRedaction.redactingJSON(Data("grant_type=password&password=pw".utf8), replacement: naming) == nil)
    }

    @Test("form fields and query parameters keep their order; only the secrets change")
    func fields() {
        let result = SecretRedaction.redactingFields(
            [("grant_type", "refresh_token"), ("refresh_token", "r1"), ("client_id", "cli"), ("client_secret", "cs"),
             ("token", "t1"), ("token_type_hint", "refresh_token"), ("password", "pw")],
            replacement: naming)

        #expect(result.redacted == 4)
        #expect(result.pairs.map(\.0) == ["grant_type", "refresh_token", "client_id", "client_secret", "token",
                                          "token_type_hint", "password"])
        #expect(result.pairs.map(\.1) == ["refresh_token", "<refresh_token>", "cli", "<client_secret>", "<token>",
                                          "refresh_token", "<password>"])
    }

    @Test("credentials headers and cookies are secret in any case; ordinary headers are not")
    func headers() {
        for name in ["Authorization", "proxy-authorization", "Cookie", "SET-COOKIE", "X-Api-Key", "X-Auth-Token"] {
            #expect(SecretRedaction.isSecretHeader(name), "\(name)")
        }
        for name in ["Accept", "Content-Type", "User-Agent", "Accept-Language", "ETag", "If-Match", "Date"] {
            #expect(!SecretRedaction.isSecretHeader(name), "\(name)")
        }
    }

    @Test("tokens are told from other secrets: a token comes back later, a password does not")
    func tokenFields() {
        #expect(["token", "access_token", "Refresh_Token", "id_token"].allSatisfy(SecretRedaction.isTokenField))
        #expect(!["password", "client_secret", "token_type", "token_type_hint"].contains(where: SecretRedaction.isTokenField))
        #expect(!["token_type", "expires_in", "user_id", "email"].contains(where: SecretRedaction.isSecretField))
    }

    @Test("a form is told by its content type")
    func formContentType() {
        #expect(SecretRedaction.isForm("application/x-www-form-urlencoded; charset=utf-8"))
        #expect(!SecretRedaction.isForm("application/json"))
        #expect(!SecretRedaction.isForm(nil))
    }
}

import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("AuthenticationChallenge: WWW-Authenticate by RFC 9110 §11.6.1")
struct AuthenticationChallengeTests {
    typealias Challenge = AuthenticationChallenge

    private func parse(_ header: String, sourceLocation: SourceLocation = #_sourceLocation) -> [Challenge] {
        do {
            return try Challenge.parse(header)
        } catch {
            Issue.record("'\(header)' did not parse: \(error)", sourceLocation: sourceLocation)
            return []
        }
    }

    private func syntaxError(_ header: String) -> Challenge.SyntaxError? {
        do {
            _ = try Challenge.parse(header)
            return nil
        } catch {
            return error
        }
    }

    @Test("a Bearer challenge with quoted and token values gives every parameter RFC 9728 and RFC 6750 define")
    func bearer() throws {
        let challenges = parse(#"Bearer resource_metadata="https://api.example/.well-known/oauth-protected-resource", "#
            + #"scope="files:read files:write", error=insufficient_scope, error_description="needs write""#)

        let bearer = try #require(challenges.first)
        #expect(challenges.count == 1)
        #expect(bearer.isScheme("bearer") && bearer.scheme == "Bearer")
        #expect(bearer.resourceMetadata == "https://api.example/.well-known/oauth-protected-resource")
        #expect(bearer.scope == "files:read files:write")
        #expect(bearer.error == "insufficient_scope")
        #expect(bearer.errorDescription == "needs write")
    }

    @Test("several challenges in one field: a comma starts the next challenge when no '=' follows its first token")
    func severalInOneField() {
        let challenges = parse(#"Bearer realm="rider", DPoP algs="ES256 PS256", error="use_dpop_nonce""#)

        #expect(challenges.map(\.scheme) == ["Bearer", "DPoP"])
        #expect(challenges[1].algorithms == ["ES256", "PS256"])
        #expect(challenges[1].error == "use_dpop_nonce")
        #expect(challenges[0].error == nil)
    }

    @Test("RFC 9110's own example: a token68-less scheme, escaped quotes, and a second challenge")
    func rfcExample() {
        let challenges = parse(#"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#)

        #expect(challenges.map(\.scheme) == ["Newauth", "Basic"])
        #expect(challenges[0]["title"] == #"Login to "apps""#)
        #expect(challenges[0]["type"] == "1")
        #expect(challenges[1]["realm"] == "simple")
    }

    @Test("commas, equals signs and schemes inside a quoted-string are text, not structure")
    func quotedCommas() {
        let challenges = parse(#"Bearer error_description="a, b=c, DPoP algs=x", scope="a,b""#)

        #expect(challenges.count == 1)
        #expect(challenges[0].errorDescription == "a, b=c, DPoP algs=x")
        #expect(challenges[0].scope == "a,b")
    }

    @Test("a quoted-pair escapes any character; a backslash before a quote keeps the string open")
    func escapes() {
        #expect(parse(#"Bearer error_description="say \"hi\" \\ \q""#).first?.errorDescription == #"say "hi" \ q"#)
    }

    @Test("scheme and parameter names compare without case; values keep theirs")
    func caseInsensitiveNames() throws {
        let challenge = try #require(parse(#"bEaReR Resource_Metadata="https://X.example/m", ERROR=Invalid_Token"#).first)

        #expect(challenge.isScheme("Bearer"))
        #expect(challenge.resourceMetadata == "https://X.example/m")
        #expect(challenge["error"] == "Invalid_Token")
    }

    @Test("an empty quoted value is a value; whitespace around '=' is allowed (BWS)")
    func emptyValuesAndBadWhitespace() throws {
        let challenge = try #require(parse("Bearer error = \"\" , scope=\t\"a\"").first)

        #expect(challenge.error == "")
        #expect(challenge.scope == "a")
    }

    @Test("token68 credentials, with padding, and a following challenge")
    func token68() {
        let challenges = parse("Negotiate YWxhZGRpbjpvcGVuc2VzYW1l==, Bearer")

        #expect(challenges.map(\.scheme) == ["Negotiate", "Bearer"])
        #expect(challenges[0].token68 == "YWxhZGRpbjpvcGVuc2VzYW1l==")
        #expect(challenges[0].parameters.isEmpty && challenges[1].token68 == nil)
    }

    @Test("bare schemes, empty list elements and surrounding spaces are a list of schemes")
    func bareSchemes() {
        #expect(parse(" , Bearer,,DPoP ,  ").map(\.scheme) == ["Bearer", "DPoP"])
        #expect(parse("").isEmpty && parse(" ,, ").isEmpty)
    }

    @Test("malformed values are a typed error at the byte where the grammar breaks", arguments: [
        (#"Bearer realm="open"#, Challenge.SyntaxError.Reason.unterminatedQuotedString),
        (#"Bearer realm="a\"#, .unterminatedQuotedString),
        ("Bearer realm=\"a\u{0A}b\"", .controlCharacter),
        (#"Bearer realm="a"b"#, .unexpectedText),
        (#"Bearer realm="a" scope="b""#, .unexpectedText),
        ("Bearer realm x", .expectedEquals),
        (#"Bearer a=b, realm=,"#, .expectedValue),
        (#"Bearer error="a", error="b""#, .duplicateParameter("error")),
        (#"Bearer ERROR="a", error="b""#, .duplicateParameter("error")),
        (#"@Bearer"#, .expectedToken),
        (#"Bearer="x""#, .unexpectedText),
        (#"Bearer realm="x", ="y""#, .expectedToken),
    ])
    func malformed(header: String, reason: Challenge.SyntaxError.Reason) {
        #expect(syntaxError(header)?.reason == reason, "\(header)")
    }

    @Test("a name with '=' and nothing after is token68 by the grammar, not an empty parameter")
    func trailingEqualsIsToken68() {
        #expect(parse("Bearer realm=").first?.token68 == "realm=")
    }

    @Test("read from a response: every WWW-Authenticate field, and the good challenges before a malformed one")
    func fromResponse() {
        var headers = HTTPHeaders()
        headers.add("www-authenticate", #"Bearer resource_metadata="https://a.example/m""#)
        headers.add("Content-Type", "application/json")
        headers.add("WWW-Authenticate", #"DPoP algs="ES256", Broken realm="open"#)
        let challenges = Challenge.challenges(in: HTTPResponse(status: 401, headers: headers))

        #expect(challenges.map(\.scheme) == ["Bearer", "DPoP"])
        #expect(challenges[0].resourceMetadata == "https://a.example/m")
    }

    @Test("junk never crashes: random bytes and truncations of a real header parse or fail with a typed error")
    func junk() {
        let header = #"Bearer resource_metadata="https://a.example/m", scope="a b", error="x\"y", DPoP algs="ES256""#
        var inputs = (0...header.utf8.count).map { String(decoding: header.utf8.prefix($0), as: UTF8.self) }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"Bearer DPoP ="\,; abc=="#.unicodeScalars) + ["\t", "\u{0}", "\u{7F}", "\u{E9}", "\u{1F600}", "\r", "\n"]
        for _ in 0..<2000 {
            let length = Int.random(in: 0...40, using: &generator)
            inputs.append(String(String.UnicodeScalarView((0..<length).compactMap { _ in alphabet.randomElement(using: &generator) })))
        }
        for input in inputs {
            _ = try? Challenge.parse(input)
            _ = Challenge.challenges(in: HTTPResponse(status: 401, headers: ["WWW-Authenticate": input]))
        }
    }

    @Test("DPoP: a resource's nonce demand is read from a DPoP challenge wherever it stands in the list")
    func dpopNonceDemand() {
        func demand(_ header: String) -> Bool {
            DPoP.asksForNonce(HTTPResponse(status: 401, headers: ["WWW-Authenticate": header]))
        }
        #expect(demand(#"DPoP error="use_dpop_nonce""#))
        #expect(demand(#"Bearer realm="rider", DPoP algs="ES256", error="use_dpop_nonce""#))
        #expect(!demand(#"DPoP error="invalid_token", error_description="not use_dpop_nonce""#))
        #expect(!demand(#"Bearer error="use_dpop_nonce""#))
    }
}

import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Request identity: User-Agent and Accept-Language")
struct RequestIdentityTests {
    @Test("the User-Agent names the embedding program first, then RiderKit and its version")
    func userAgent() {
        #expect(RequestIdentity(program: "MyApp/2.1").userAgent == "MyApp/2.1 RiderKit/\(RequestIdentity.libraryVersion)")
        #expect(RequestIdentity().userAgent == "RiderKit/\(RequestIdentity.libraryVersion)")
        #expect(RequestIdentity(program: "Evil/1\r\nAuthorization: x").userAgent
                == "Evil/1Authorization: x RiderKit/\(RequestIdentity.libraryVersion)", "no header can be forged")
    }

    @Test("languages come from LANGUAGE, then LC_ALL, LC_MESSAGES or LANG, as BCP 47 tags",
          arguments: [
              (["LANG": "de_CH.UTF-8"], ["de-CH"]),
              (["LANG": "en_US.UTF-8", "LC_ALL": "fr_FR@euro"], ["fr-FR"]),
              (["LANG": "en_GB.UTF-8", "LC_MESSAGES": "pt_BR.UTF-8"], ["pt-BR"]),
              (["LANGUAGE": "de:en_GB", "LANG": "de_AT.UTF-8"], ["de", "en-GB", "de-AT"]),
              (["LANG": "C.UTF-8"], []),
              (["LANG": "POSIX"], []),
              ([:], []),
              (["LANG": "x\r\ny"], []),
          ])
    func languagesFromEnvironment(environment: [String: String], expected: [String]) {
        #expect(RequestIdentity.languages(fromEnvironment: environment) == expected)
    }

    @Test("Accept-Language weighs later languages less, drops duplicates and malformed tags, and is absent with none")
    func acceptLanguage() {
        #expect(RequestIdentity(languages: ["de-CH", "de", "DE", "en", "bad tag"]).acceptLanguage == "de-CH, de;q=0.9, en;q=0.8")
        #expect(RequestIdentity().acceptLanguage == nil)
    }

    @Test("every request through the transport carries both headers; a request that sets its own keeps it")
    func transportAddsHeaders() async throws {
        let stub = StubTransport()
        stub.stub(.any, with: .status(204))
        let transport = RequestPipeline(transport: stub, middlewares: [
            IdentityMiddleware(identity: RequestIdentity(program: "rider/1", languages: ["it"]))])
        let url = try #require(URL(string: "https://api.example.test/users"))

        _ = try await transport.send(HTTPRequest(method: .get, url: url))
        _ = try await transport.send(HTTPRequest(method: .get, url: url, headers: ["User-Agent": "custom"]))

        #expect(stub.requests.map { $0.headers["User-Agent"] } == ["rider/1 RiderKit/\(RequestIdentity.libraryVersion)", "custom"])
        #expect(stub.requests.map { $0.headers["Accept-Language"] } == ["it", "it"])
    }
}

@Suite("Required response headers")
struct RequiredHeaderTests {
    @Test("a profile edit answered without ETag is a malformed response naming the header")
    func patchWithoutETag() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.patch, "/riders/me", times: 1, with: .successful(Fixtures.rider()))

        await #expect(throws: RiderError.malformedResponse(
            "the answer to PATCH /riders/me has no ETag header, which the API contract requires")) {
            try await harness.updateRider(RiderPatch(displayName: "Ada"), basedOn: Fixtures.entityTag)
        }
    }

    @Test("an edit without a base tag refuses to go on when the profile comes without ETag, and sends no PATCH")
    func baseWithoutETag() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me", times: 1, with: .successful(Fixtures.rider()))

        let refusal = await #expect(throws: RiderError.self) { try await harness.updateRider(RiderPatch(displayName: "Ada")) }
        #expect(refusal?.code == .malformedResponse, "\(String(describing: refusal))")
        #expect(harness.transport.count(.patch, "/riders/me") == 0)
    }

    @Test("reading the profile does not need the ETag")
    func readWithoutETag() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me", times: 1, with: .successful(Fixtures.rider()))

        #expect(try await harness.getRider().entityTag == nil)
    }
}

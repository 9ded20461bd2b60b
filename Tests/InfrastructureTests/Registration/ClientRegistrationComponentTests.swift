import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import Testing
import TestSupport

@Suite("ClientRegistration: a configured client id, a metadata document, or RFC 7591 dynamic registration")
struct ClientRegistrationComponentTests {
    typealias Refusal = ClientRegistration.Refusal
    static let issuer = "https://id.example.test"
    static let endpoint = "https://id.example.test/register"
    static let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"
    static let program = ClientRegistration.Program(clientName: "rider", softwareID: "org.riderkit.rider",
                                                    softwareVersion: "0.9.0")

    static func metadata(registration: String? = Self.endpoint, grants: [String]? = nil, jwks: Bool = true,
                         metadataDocuments: Bool? = nil) -> ProviderMetadata {
        var metadata = ProviderMetadata(issuer: issuer, endpoints: ProviderEndpoints(
            token: URL(string: issuer + "/token"), jwks: jwks ? URL(string: issuer + "/jwks") : nil),
            grantTypesSupported: grants, codeChallengeMethodsSupported: ["S256"])
        metadata.registrationEndpoint = registration.flatMap(URL.init(string:))
        metadata.clientIDMetadataDocumentSupported = metadataDocuments
        return metadata
    }

    /// What a server answers to a registration it accepted as asked.
    static func accepted(clientID: FixtureJSON = "c-123", grants: [String] = ["authorization_code", "refresh_token"],
                         extra: [(String, FixtureJSON)] = []) -> StubReply {
        var answer: FixtureJSON = [
            "client_id": clientID, "client_id_issued_at": 1_800_000_000,
            "redirect_uris": ["http://127.0.0.1/callback", "http://[::1]/callback"],
            "grant_types": .array(grants.map(FixtureJSON.string)), "response_types": ["code"],
            "token_endpoint_auth_method": "none", "client_name": "rider",
        ]
        for (key, value) in extra { answer[key] = value }
        return .successful(answer, status: 201)
    }

    struct Fixture {
        let transport = StubTransport()
        let store = InMemoryClientRegistrationStore()
        let clock = ManualClock()

        func registration(clientID: String? = nil, metadataURL: String? = nil, wantsDeviceCode: Bool = false,
                          store: (any ClientRegistrationStore)? = nil) throws -> ClientRegistration {
            var configuration = try ClientRegistration.Configuration(
                clientID: clientID, clientIDMetadataURL: metadataURL.flatMap(URL.init(string:)),
                program: ClientRegistrationComponentTests.program)
            configuration.wantsDeviceCode = wantsDeviceCode
            return ClientRegistration(configuration: configuration, transport: transport, store: store ?? self.store,
                                      clock: clock)
        }

        func register(_ replies: StubReply...) {
            transport.stub(.post, "/register", inOrder: replies)
        }

        var registrations: [HTTPRequest] { transport.requests }
    }

    private func refusal(_ error: RiderError?) -> Refusal? { error?.underlying as? Refusal }

    // MARK: - The request and its answer

    @Test("RFC 7591: one POST of JSON for a public native client, loopback redirect URIs, no redirect followed")
    func requestShape() async throws {
        let fixture = Fixture()
        fixture.register(Self.accepted())

        let client = try await fixture.registration().client(for: Self.metadata())

        let request = try #require(fixture.registrations.only)
        #expect(request.method == .post && request.url.absoluteString == Self.endpoint)
        #expect(request.headers["Content-Type"] == "application/json" && request.headers["Authorization"] == nil)
        #expect(!request.followsRedirects)
        #expect(request.bodyText == #"{"client_name":"rider","grant_types":["authorization_code","refresh_token"],"#
            + #""redirect_uris":["http://127.0.0.1/callback","http://[::1]/callback"],"response_types":["code"],"#
            + #""software_id":"org.riderkit.rider","software_version":"0.9.0","token_endpoint_auth_method":"none"}"#)
        #expect(client.clientID == "c-123" && client.clientSecret == nil && client.origin == .dynamic)
        #expect(client.issuer == Self.issuer && client.tokenEndpointAuthMethod == "none")
        #expect(client.issuedAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(client.grantTypes == ["authorization_code", "refresh_token"])
        #expect(client.redirectURIs == ["http://127.0.0.1/callback", "http://[::1]/callback"])
        #expect(client.mayReceiveIDTokens, "code flow, no scope named, an OpenID provider with keys")
        #expect(try await fixture.store.load(issuer: Self.issuer) == client, "kept for the issuer")
    }

    @Test("redirect path, hosts and a fixed port are parameters")
    func redirectParameters() throws {
        var configuration = try ClientRegistration.Configuration(program: Self.program)
        configuration.redirectPath = "oauth/done"
        configuration.redirectHosts = ["127.0.0.1"]
        configuration.redirectPort = 53_682
        #expect(configuration.redirectURIs == ["http://127.0.0.1:53682/oauth/done"])
    }

    @Test("a kept registration is reused without a request, by the next instance too")
    func reuse() async throws {
        let fixture = Fixture()
        fixture.register(Self.accepted())
        let first = try await fixture.registration().client(for: Self.metadata())

        let again = try await fixture.registration().client(for: Self.metadata())

        #expect(again == first && fixture.registrations.count == 1)
    }

    @Test("forget (after invalid_client): the next call registers again and keeps the new client")
    func forgetRegistersAgain() async throws {
        let fixture = Fixture()
        fixture.register(Self.accepted(clientID: "old"), Self.accepted(clientID: "new"))
        let registration = try fixture.registration()
        #expect(try await registration.client(for: Self.metadata()).clientID == "old")

        try await registration.forget(issuer: Self.issuer)
        let renewed = try await registration.client(for: Self.metadata())

        #expect(renewed.clientID == "new" && fixture.registrations.count == 2)
        #expect(try await fixture.store.load(issuer: Self.issuer)?.clientID == "new")
    }

    @Test("after invalid_client: a replacement registered once; one another process kept meanwhile; none for a configured id")
    func replacementAfterInvalidClient() async throws {
        let fixture = Fixture()
        fixture.register(Self.accepted(clientID: "old"), Self.accepted(clientID: "new"))
        let registration = try fixture.registration()
        let old = try await registration.client(for: Self.metadata())

        let new = try await registration.replacement(for: old, at: Self.metadata())
        #expect(new?.clientID == "new" && fixture.registrations.count == 2)

        // Another process already replaced "old": its client is taken, nothing registered.
        let meanwhile = try await registration.replacement(for: old, at: Self.metadata())
        #expect(meanwhile?.clientID == "new" && fixture.registrations.count == 2)

        let configured = try await fixture.registration(clientID: "configured").client(for: Self.metadata())
        #expect(try await fixture.registration(clientID: "configured").replacement(for: configured, at: Self.metadata()) == nil)
    }

    @Test("a kept registration for other redirect URIs is not reused")
    func otherRedirectsRegisterAgain() async throws {
        let fixture = Fixture()
        try await fixture.store.save(RegisteredClient(issuer: Self.issuer, clientID: "elsewhere",
                                                      redirectURIs: ["http://127.0.0.1:9/other"], origin: .dynamic))
        fixture.register(Self.accepted())

        #expect(try await fixture.registration().client(for: Self.metadata()).clientID == "c-123")
    }

    // MARK: - Device grant

    @Test("the device grant is asked for only when wanted and listed by the server")
    func deviceGrantOnlyWhenListed() async throws {
        let unlisted = Fixture()
        unlisted.register(Self.accepted())
        _ = try await unlisted.registration(wantsDeviceCode: true)
            .client(for: Self.metadata(grants: ["authorization_code", "refresh_token"]))
        #expect(unlisted.registrations.first?.jsonObject?["grant_types"] as? [String] == ["authorization_code", "refresh_token"])

        let listed = Fixture()
        listed.register(Self.accepted(grants: ["authorization_code", "refresh_token", Self.deviceGrant]))
        let client = try await listed.registration(wantsDeviceCode: true)
            .client(for: Self.metadata(grants: ["authorization_code", "refresh_token", Self.deviceGrant]))
        #expect(listed.registrations.first?.jsonObject?["grant_types"] as? [String]
            == ["authorization_code", "refresh_token", Self.deviceGrant])
        #expect(client.grantTypes.contains(Self.deviceGrant))
    }

    @Test("a 400 to the device grant's combination (django-oauth-toolkit) registers again without it")
    func deviceGrantFallback() async throws {
        let fixture = Fixture()
        fixture.register(.json(["error": "invalid_client_metadata", "error_description": "one grant type only"], status: 400),
                         Self.accepted())

        let client = try await fixture.registration(wantsDeviceCode: true)
            .client(for: Self.metadata(grants: ["authorization_code", "refresh_token", Self.deviceGrant]))

        #expect(fixture.registrations.map { $0.jsonObject?["grant_types"] as? [String] ?? [] }
            == [["authorization_code", "refresh_token", Self.deviceGrant], ["authorization_code", "refresh_token"]])
        #expect(client.clientID == "c-123" && !client.grantTypes.contains(Self.deviceGrant))
    }

    // MARK: - What wins

    @Test("a configured client id wins: no request, nothing kept")
    func configuredWins() async throws {
        let fixture = Fixture()

        let client = try await fixture.registration(clientID: "configured", metadataURL: "https://rider.example/client.json")
            .client(for: Self.metadata(metadataDocuments: true))

        #expect(client.clientID == "configured" && client.origin == .configured)
        let kept = try await fixture.store.load(issuer: Self.issuer)
        #expect(fixture.registrations.isEmpty && kept == nil)
    }

    @Test("a metadata document URL is the client id only where the server advertises client id metadata documents")
    func metadataDocument() async throws {
        let advertised = Fixture()
        let client = try await advertised.registration(metadataURL: "https://rider.example/client-metadata.json")
            .client(for: Self.metadata(metadataDocuments: true))
        #expect(client.clientID == "https://rider.example/client-metadata.json" && client.origin == .metadataDocument)
        #expect(advertised.registrations.isEmpty)

        let silent = Fixture()
        silent.register(Self.accepted())
        let registered = try await silent.registration(metadataURL: "https://rider.example/client-metadata.json")
            .client(for: Self.metadata(metadataDocuments: nil))
        #expect(registered.clientID == "c-123" && silent.registrations.count == 1)
    }

    @Test("client_id_metadata_document_supported is read from the server's discovered metadata")
    func metadataDocumentFromDiscovery() async throws {
        let fixture = Fixture()
        fixture.transport.stub(.get, "/.well-known/openid-configuration", with: .successful([
            "issuer": .string(Self.issuer), "token_endpoint": .string(Self.issuer + "/token"),
            "revocation_endpoint": .string(Self.issuer + "/revoke"), "registration_endpoint": .string(Self.endpoint), "client_id_metadata_document_supported": true,
        ]))
        let discovery = ProviderDiscovery(configuration: try ProviderDiscovery.Configuration(issuer: #require(URL(string: Self.issuer))),
                                          transport: fixture.transport, cache: InMemoryProviderMetadataCache(), clock: fixture.clock)
        let metadata = try await discovery.metadata().metadata

        let client = try await fixture.registration(metadataURL: "https://rider.example/client-metadata.json").client(for: metadata)

        #expect(metadata.clientIDMetadataDocumentSupported == true)
        #expect(client.origin == .metadataDocument && fixture.transport.requests.count == 1, "only the discovery")
    }

    @Test("a metadata document URL that is not https with a path is a configuration error")
    func metadataDocumentURLChecked() throws {
        for text in ["http://rider.example/client.json", "https://rider.example", "https://u:p@rider.example/c.json",
                     "https://rider.example/c.json#x"] {
            let error = #expect(throws: RiderError.self, "\(text)") {
                try ClientRegistration.Configuration(clientIDMetadataURL: URL(string: text), program: Self.program)
            }
            #expect(error?.code == .invalidConfiguration && error?.message.contains("metadata document URL") == true,
                    "\(text): \(String(describing: error))")
            #expect(error?.message.contains("u:p") == false, "a password in the URL is never repeated")
        }
    }

    // MARK: - id_tokens

    @Test("openid may be asked for when the code flow is registered and the scope, if named, has openid")
    func idTokenRule() async throws {
        func client(_ reply: StubReply, jwks: Bool = true) async throws -> RegisteredClient {
            let fixture = Fixture()
            fixture.register(reply)
            return try await fixture.registration().client(for: Self.metadata(jwks: jwks))
        }
        let openIDScope = try await client(Self.accepted(extra: [("scope", "openid profile")]))
        let otherScope = try await client(Self.accepted(extra: [("scope", "files:read")]))
        let oauthOnly = try await client(Self.accepted(), jwks: false)
        let noCodeFlow = try await client(Self.accepted(grants: ["refresh_token"], extra: [("scope", "openid")]))
        #expect(openIDScope.mayReceiveIDTokens)
        #expect(!otherScope.mayReceiveIDTokens)
        #expect(!oauthOnly.mayReceiveIDTokens, "an OAuth-only server")
        #expect(!noCodeFlow.mayReceiveIDTokens)
    }

    // MARK: - Refusals

    @Test("nothing configured and no registration endpoint is refused, with no request")
    func noEndpoint() async throws {
        let fixture = Fixture()
        let error = await #expect(throws: RiderError.self) {
            try await fixture.registration().client(for: Self.metadata(registration: nil))
        }
        #expect(error?.code == .invalidConfiguration && refusal(error) == .noRegistrationEndpoint)
        #expect(fixture.registrations.isEmpty)
    }

    @Test("a registration endpoint that is neither https nor loopback http is refused, with no request")
    func unusableEndpoint() async throws {
        for endpoint in ["http://id.example.test/register", "https://u:p@id.example.test/register"] {
            let fixture = Fixture()
            let error = await #expect(throws: RiderError.self) {
                try await fixture.registration().client(for: Self.metadata(registration: endpoint))
            }
            #expect(refusal(error) == .unusableEndpoint && fixture.registrations.isEmpty)
            #expect(error?.message.contains("u:p") == false)
        }
    }

    @Test("a redirect on registration is refused and not followed")
    func redirectRefused() async throws {
        let fixture = Fixture()
        fixture.register(.status(307, headers: ["Location": "https://evil.example/register"]))

        let error = await #expect(throws: RiderError.self) { try await fixture.registration().client(for: Self.metadata()) }

        #expect(refusal(error) == .redirect && fixture.registrations.count == 1)
        #expect(try await fixture.store.load(issuer: Self.issuer) == nil)
    }

    @Test("an answer without a client_id (absent or empty) is refused, nothing kept")
    func noClientID() async throws {
        for answer: FixtureJSON in [["client_name": "rider"], ["client_id": ""]] {
            let fixture = Fixture()
            fixture.register(.successful(answer, status: 201))
            let error = await #expect(throws: RiderError.self) { try await fixture.registration().client(for: Self.metadata()) }
            #expect(error?.code == .malformedResponse && refusal(error) == .noClientID)
            #expect(try await fixture.store.load(issuer: Self.issuer) == nil)
        }
    }

    @Test("an RFC 7591 error answer says the server's error and description, clipped to one safe line")
    func errorAnswer() async throws {
        let fixture = Fixture()
        fixture.register(.json(["error": "invalid_redirect_uri", "error_description": "loopback \u{1B}[31monly\nsecond line"],
                               status: 400))

        let error = await #expect(throws: RiderError.self) { try await fixture.registration().client(for: Self.metadata()) }

        #expect(refusal(error) == .refused(error: "invalid_redirect_uri", description: "loopback [31monly"))
        #expect(error?.message.contains("invalid_redirect_uri") == true && error?.message.contains("loopback [31monly") == true)
        #expect(error?.message.contains("\u{1B}") == false && error?.message.contains("second line") == false)
    }

    @Test("an oversized answer is refused")
    func oversized() async throws {
        let fixture = Fixture()
        fixture.register(.successful(body: #"{"client_id":"c","pad":""# + String(repeating: "x", count: 70_000) + #""}"#,
                                     status: 201))
        let error = await #expect(throws: RiderError.self) { try await fixture.registration().client(for: Self.metadata()) }
        #expect(refusal(error) == .answerTooLarge)
    }

    @Test("lenient where servers differ: the method as an array (Glewlwyd 2.7.5), numbers as strings")
    func lenientAnswer() async throws {
        let fixture = Fixture()
        fixture.register(Self.accepted(extra: [("token_endpoint_auth_method", ["none"]), ("client_id_issued_at", "1800000001")]))

        let client = try await fixture.registration().client(for: Self.metadata())

        #expect(client.tokenEndpointAuthMethod == "none" && client.clientAuthentication == .none)
        #expect(client.issuedAt == Date(timeIntervalSince1970: 1_800_000_001))
    }

    @Test("a server error is the server's, and a 200 answer is taken as a 201")
    func serverErrorAndOK() async throws {
        let failing = Fixture()
        failing.register(.status(503))
        let error = await #expect(throws: RiderError.self) { try await failing.registration().client(for: Self.metadata()) }
        #expect(error?.code == .server)

        let ok = Fixture()
        ok.register(.successful(["client_id": "c-200"]))
        #expect(try await ok.registration().client(for: Self.metadata()).clientID == "c-200")
    }

    // MARK: - Client secrets

    @Test("a secret issued despite none: kept in memory for the process, never in the file; the next process registers again")
    func secretNotOnDisk() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let fixture = Fixture()
        fixture.register(Self.accepted(clientID: "confidential", extra: [
            ("client_secret", "s3cr3t-value"), ("client_secret_expires_at", 0),
            ("token_endpoint_auth_method", "client_secret_basic")]), Self.accepted(clientID: "second"))
        let store = FileClientRegistrationStore(root: folder.url)

        let client = try await fixture.registration(store: store).client(for: Self.metadata())
        #expect(client.clientSecret == "s3cr3t-value" && client.clientAuthentication == .basic)
        #expect(!client.description.contains("s3cr3t-value"))
        let onDisk = try String(decoding: Data(contentsOf: store.file(forIssuer: Self.issuer)), as: UTF8.self)
        #expect(!onDisk.contains("s3cr3t-value") && onDisk.contains("confidential"))
        #expect(try await fixture.registration(store: store).client(for: Self.metadata()) == client,
                "the same process still has it")

        let nextProcess = FileClientRegistrationStore(root: folder.url)
        let renewed = try await fixture.registration(store: nextProcess).client(for: Self.metadata())
        #expect(renewed.clientID == "second" && fixture.registrations.count == 2)
    }

    @Test("a secret method without a secret, or a method RiderKit cannot use, is refused")
    func unusableAuthentication() async throws {
        for method: FixtureJSON in ["client_secret_basic", "private_key_jwt"] {
            let fixture = Fixture()
            fixture.register(Self.accepted(extra: [("token_endpoint_auth_method", method)]))
            let error = await #expect(throws: RiderError.self) { try await fixture.registration().client(for: Self.metadata()) }
            guard case .unusableAuthentication = refusal(error) else {
                Issue.record("expected unusableAuthentication, got \(String(describing: error))")
                continue
            }
        }
    }
}

extension Array {
    /// The one element, or `nil` when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}

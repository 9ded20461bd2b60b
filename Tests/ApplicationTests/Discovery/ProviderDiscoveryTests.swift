import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("ProviderDiscovery: metadata from the issuer alone")
struct ProviderDiscoveryTests {
    static let issuer = "https://id.example.test"
    static let openID = "/.well-known/openid-configuration"
    static let oauth = "/.well-known/oauth-authorization-server"

    static func document(issuer: String = Self.issuer, token: String = "https://id.example.test/oauth/token",
                         extra: [String: FixtureJSON] = [:]) -> FixtureJSON {
        var object: FixtureJSON = [
            "issuer": .string(issuer), "token_endpoint": .string(token),
            "authorization_endpoint": "https://id.example.test/oauth/authorize",
            "device_authorization_endpoint": "https://id.example.test/oauth/device",
            "revocation_endpoint": "https://id.example.test/oauth/revoke",
            "userinfo_endpoint": "https://id.example.test/userinfo",
            "jwks_uri": "https://id.example.test/jwks.json",
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "authorization_response_iss_parameter_supported": true,
        ]
        for (key, value) in extra { object[key] = value }
        return object
    }

    struct Fixture {
        let transport: StubTransport
        let cache: MemoryMetadataCache
        let clock: ManualClock
        let discovery: ProviderDiscovery

        init(issuer: String = ProviderDiscoveryTests.issuer, delay: Duration = .zero, cache: MemoryMetadataCache? = nil,
             sourceLocation: SourceLocation = #_sourceLocation) throws {
            transport = StubTransport(delay: delay, sourceLocation: sourceLocation)
            self.cache = cache ?? MemoryMetadataCache()
            clock = ManualClock()
            discovery = ProviderDiscovery(configuration: try .init(issuer: try #require(URL(string: issuer))),
                                          transport: transport, cache: self.cache, clock: clock)
        }

        /// The same cache and transport in a new process.
        func nextRun() throws -> ProviderDiscovery {
            ProviderDiscovery(configuration: discovery.configuration, transport: transport, cache: cache, clock: clock)
        }
    }

    // MARK: - Where the documents are

    @Test("an issuer without a path: the OpenID document under it, then RFC 8414's at the root")
    func wellKnownURLsWithoutPath() throws {
        let urls = ProviderDiscovery.wellKnownURLs(for: try #require(URL(string: "https://id.example.test")))
        #expect(urls.map(\.absoluteString) == ["https://id.example.test/.well-known/openid-configuration",
                                               "https://id.example.test/.well-known/oauth-authorization-server"])
    }

    @Test("an issuer with a path: OpenID appends the well-known path, RFC 8414 inserts it before the path (§3.1)")
    func wellKnownURLsWithPath() throws {
        let urls = ProviderDiscovery.wellKnownURLs(for: try #require(URL(string: "https://h.example/tenant/x/")))
        #expect(urls.map(\.absoluteString) == ["https://h.example/tenant/x/.well-known/openid-configuration",
                                               "https://h.example/.well-known/oauth-authorization-server/tenant/x"])
    }

    @Test("an issuer with a query, a fragment, a password or plain http to a remote host is refused")
    func unusableIssuers() throws {
        for text in ["https://id.example.test/?tenant=1", "https://id.example.test/#x", "https://u:p@id.example.test",
                     "http://id.example.test", "ftp://id.example.test"] {
            expectError(.invalidConfiguration, "\(text)") {
                _ = try ProviderDiscovery.Configuration(issuer: try #require(URL(string: text)))
            }
        }
        _ = try ProviderDiscovery.Configuration(issuer: try #require(URL(string: "http://127.0.0.1:8080")))
    }

    // MARK: - Which document

    @Test("the OpenID Connect document is asked first, without credentials, and everything RiderKit reads is learnt")
    func openIDFirst() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, Self.openID, with: .successful(Self.document()))

        let discovered = try await fixture.discovery.metadata()

        let metadata = discovered.metadata
        #expect(discovered.source == .network)
        #expect(metadata.issuer == Self.issuer)
        #expect(metadata.endpoints.token?.absoluteString == "https://id.example.test/oauth/token")
        #expect(metadata.endpoints.authorization?.path == "/oauth/authorize")
        #expect(metadata.endpoints.deviceAuthorization?.path == "/oauth/device")
        #expect(metadata.endpoints.revocation?.path == "/oauth/revoke")
        #expect(metadata.endpoints.userinfo?.path == "/userinfo")
        #expect(metadata.endpoints.jwks?.path == "/jwks.json")
        #expect(metadata.supportsGrant("refresh_token") && !metadata.supportsGrant("password"))
        #expect(metadata.supportsCodeChallengeMethod("S256") && !metadata.supportsCodeChallengeMethod("plain"))
        #expect(metadata.authorizationResponseIssParameterSupported)
        #expect(fixture.transport.count(.get, Self.oauth) == 0)
        let request = try #require(fixture.transport.requests.first)
        #expect(request.headers["Authorization"] == nil && request.body == nil && !request.followsRedirects)
    }

    @Test("a 404 for the OpenID document falls back to RFC 8414's")
    func fallbackOn404() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, Self.openID, with: .status(404))
        fixture.transport.stub(.get, Self.oauth, with: .successful(Self.document(extra: ["grant_types_supported": ["password"]])))

        let metadata = try await fixture.discovery.metadata().metadata

        #expect(metadata.supportsGrant("password"))
        #expect(fixture.transport.requests.map(\.url.path) == [Self.openID, Self.oauth])
    }

    @Test("an issuer with a path is looked up at the path-inserted RFC 8414 location")
    func pathInsertedFallback() async throws {
        let fixture = try Fixture(issuer: "https://id.example.test/tenant")
        fixture.transport.stub(.get, "/tenant" + Self.openID, with: .status(404))
        fixture.transport.stub(.get, Self.oauth + "/tenant",
                               with: .successful(Self.document(issuer: "https://id.example.test/tenant")))

        #expect(try await fixture.discovery.metadata().metadata.issuer == "https://id.example.test/tenant")
    }

    @Test("no document at either location is a configuration error naming both")
    func noMetadata() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, Self.openID, with: .status(404))
        fixture.transport.stub(.get, Self.oauth, with: .status(404))

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery.metadata() }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("oauth-authorization-server") == true)
    }

    @Test("a server error is not taken for missing metadata: no fallback, the error as it comes")
    func serverErrorIsNotAFallback() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, Self.openID, with: .problem(status: 503))

        await expectError(.server) { try await fixture.discovery.metadata() }
        #expect(fixture.transport.count(.get, Self.oauth) == 0)
    }

    // MARK: - Refusals

    @Test("a document naming another issuer is refused (RFC 8414 §3.3), even a trailing slash, and nothing is kept")
    func issuerMismatch() async throws {
        for other in ["https://evil.example.test", Self.issuer + "/", "HTTPS://id.example.test"] {
            let fixture = try Fixture()
            fixture.transport.stub(.get, Self.openID, with: .successful(Self.document(issuer: other)))

            let error = await #expect(throws: RiderError.self) { try await fixture.discovery.metadata() }

            #expect(error?.code == .invalidConfiguration, "\(other)")
            #expect(await fixture.cache.load(issuer: Self.issuer) == nil)
            #expect(await fixture.cache.saves == 0)
        }
    }

    @Test("the provider's text in an error is clipped to one line without control characters")
    func hostileIssuerIsClipped() async throws {
        let fixture = try Fixture()
        let hostile = "https://evil.example\u{1B}]52;c;AAAA\u{07}\nforged line" + String(repeating: "x", count: 500)
        fixture.transport.stub(.get, Self.openID, with: .successful(Self.document(issuer: hostile)))

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery.metadata() }

        let message = try #require(error?.message)
        #expect(!message.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) })
        #expect(!message.contains("forged line") && message.count < 700)
    }

    @Test("an endpoint over plain http to a remote host, or with a password, refuses the whole document")
    func unsafeEndpoints() async throws {
        let cases: [FixtureJSON] = [
            Self.document(token: "http://id.example.test/oauth/token"),
            Self.document(extra: ["revocation_endpoint": "https://user:secret@id.example.test/revoke"]),
            Self.document(extra: ["jwks_uri": "file:///etc/passwd"]),
        ]
        for document in cases {
            let fixture = try Fixture()
            fixture.transport.stub(.get, Self.openID, with: .successful(document))

            let error = await #expect(throws: RiderError.self) { try await fixture.discovery.metadata() }

            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("secret") == false, "a password in a URL is never echoed")
            #expect(await fixture.cache.saves == 0)
        }
    }

    @Test("a loopback endpoint over plain http is accepted, as a configured URL would be")
    func loopbackHTTPEndpoint() async throws {
        let fixture = try Fixture(issuer: "http://127.0.0.1:8080")
        fixture.transport.stub(.get, Self.openID, with: .successful(
            Self.document(issuer: "http://127.0.0.1:8080", token: "http://127.0.0.1:8080/auth/token")))

        #expect(try await fixture.discovery.metadata().metadata.endpoints.token?.port == 8080)
    }

    @Test("a document that is not JSON metadata is a malformed response")
    func undecodable() async throws {
        for body in ["<html>login</html>", #"{"token_endpoint": "https://id.example.test/t"}"#, "[]"] {
            let fixture = try Fixture()
            fixture.transport.stub(.get, Self.openID, with: .successful(body: body))
            await expectError(.malformedResponse, "\(body)") { try await fixture.discovery.metadata() }
        }
    }

    @Test("a redirect within the issuer's origin is followed; one to another origin is refused")
    func redirects() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, Self.openID, with: .status(302, headers: ["Location": "/meta.json"]))
        fixture.transport.stub(.get, "/meta.json", with: .successful(Self.document()))
        #expect(try await fixture.discovery.metadata().metadata.issuer == Self.issuer)

        let away = try Fixture()
        away.transport.stub(.get, Self.openID, with: .status(302, headers: ["Location": "https://evil.example/meta.json"]))
        await expectError(.invalidConfiguration) { try await away.discovery.metadata() }
        #expect(away.transport.requests.count == 1)
    }

    // MARK: - Keeping it

    @Test("kept for max-age, across runs, then asked again")
    func keptUntilExpiry() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, Self.openID, with: .successful(Self.document(), headers: ["Cache-Control": "public, max-age=600"]))

        let first = try await fixture.discovery.metadata()
        fixture.clock.advance(by: 599)
        let sameRun = try await fixture.discovery.metadata()
        let nextRun = try await fixture.nextRun().metadata()
        fixture.clock.advance(by: 1)
        let expired = try await fixture.nextRun().metadata()

        #expect(first.source == .network && first.expiresAt == Fixtures.epoch.addingTimeInterval(600))
        #expect(sameRun.source == .cache && nextRun.source == .cache)
        #expect(nextRun.metadata == first.metadata)
        #expect(expired.source == .network && expired.storedAt == Fixtures.epoch.addingTimeInterval(600))
        #expect(fixture.transport.count(.get, Self.openID) == 2)
    }

    @Test("without Cache-Control a day; max-age is capped at a week; no-store is not kept")
    func lifetimes() async throws {
        let replies: [(HTTPHeaders, TimeInterval?)] = [
            ([:], 86_400), (["Cache-Control": "max-age=31536000"], 7 * 86_400), (["Cache-Control": "no-store"], nil),
            (["Cache-Control": "max-age=0"], nil),
        ]
        for (headers, lifetime) in replies {
            let fixture = try Fixture()
            fixture.transport.stub(.get, Self.openID, with: .successful(Self.document(), headers: headers))

            let discovered = try await fixture.discovery.metadata()

            let kept = await fixture.cache.load(issuer: Self.issuer)
            #expect(kept?.expiresAt.timeIntervalSince(Fixtures.epoch) == lifetime, "\(headers)")
            #expect(discovered.expiresAt == Fixtures.epoch.addingTimeInterval(lifetime ?? 0))
        }
    }

    @Test("a document the provider says not to keep is asked for once per instance, for a while, and never kept")
    func noStoreIsAskedOncePerInstance() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, Self.openID, with: .successful(Self.document(), headers: ["Cache-Control": "no-store"]))

        let first = try await fixture.discovery.metadata()
        for _ in 0..<5 { _ = try await fixture.discovery.metadata() }
        fixture.clock.advance(by: ProviderDiscovery.reuseInProcess - 1)
        let later = try await fixture.discovery.metadata()

        #expect(first.source == .network && later.source == .cache)
        #expect(fixture.transport.count(.get, Self.openID) == 1)
        #expect(await fixture.cache.load(issuer: Self.issuer) == nil, "not kept on disk")
        #expect(try await fixture.nextRun().metadata().source == .network, "another process asks again")
        fixture.clock.advance(by: 1)
        #expect(try await fixture.discovery.metadata().source == .network, "and so does this one, in time")
    }

    @Test("reload asks even when the kept copy is fresh")
    func reload() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, Self.openID, with: .successful(Self.document()))

        _ = try await fixture.discovery.metadata()
        let reloaded = try await fixture.discovery.metadata(reload: true)

        #expect(reloaded.source == .network && fixture.transport.count(.get, Self.openID) == 2)
    }

    @Test("a kept document of another issuer, or with an endpoint now refused, is not used")
    func keptDocumentIsCheckedAgain() async throws {
        let forged = StoredProviderMetadata(
            metadata: ProviderMetadata(issuer: Self.issuer, endpoints: ProviderEndpoints(
                token: URL(string: "http://evil.example/token"))),
            storedAt: Fixtures.epoch, expiresAt: Fixtures.epoch.addingTimeInterval(3600))
        let fixture = try Fixture(cache: MemoryMetadataCache([Self.issuer: forged]))
        fixture.transport.stub(.get, Self.openID, with: .successful(Self.document()))

        let discovered = try await fixture.discovery.metadata()

        #expect(discovered.source == .network && discovered.metadata.endpoints.token?.host == "id.example.test")
    }

    @Test("when the provider cannot be reached, an expired kept copy is used and says so")
    func staleWhenUnreachable() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, Self.openID, times: 1, with: .successful(Self.document(), headers: ["Cache-Control": "max-age=60"]))
        fixture.transport.stub(.get, Self.openID, with: .failing(RiderError.serverUnreachable(reason: "offline")))
        _ = try await fixture.discovery.metadata()
        fixture.clock.advance(by: 3600)

        let stale = try await fixture.nextRun().metadata()

        guard case .offline(let reason) = stale.source else {
            Issue.record("expected an offline answer, got \(stale.source)")
            return
        }
        #expect(reason.code == .serverUnreachable && stale.metadata.issuer == Self.issuer)
    }

    @Test("many first uses at once fetch the document once")
    func singleFlight() async throws {
        let fixture = try Fixture(delay: .milliseconds(50))
        fixture.transport.stub(.get, Self.openID, with: .successful(Self.document()))

        let issuers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await fixture.discovery.metadata().metadata.issuer } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }

        #expect(issuers.count == 50 && Set(issuers) == [Self.issuer])
        #expect(fixture.transport.count(.get, Self.openID) == 1)
        #expect(await fixture.discovery.requestCount == 1)
    }
}

/// A ``ProviderMetadataCache`` in memory that counts saves.
actor MemoryMetadataCache: ProviderMetadataCache {
    private var stored: [String: StoredProviderMetadata]
    private(set) var saves = 0

    init(_ stored: [String: StoredProviderMetadata] = [:]) { self.stored = stored }

    /// The issuer kept for each protected resource, as the file adapter keeps it.
    private var issuers: [String: String] = [:]
    func issuer(ofResource resource: String) async -> String? { issuers[resource] }
    func saveIssuer(_ issuer: String, ofResource resource: String) async throws { issuers[resource] = issuer }

    func load(issuer: String) async -> StoredProviderMetadata? { stored[issuer] }
    func save(_ metadata: StoredProviderMetadata) async throws {
        saves += 1
        stored[metadata.metadata.issuer] = metadata
    }
    func remove(issuer: String) async throws { stored[issuer] = nil }
}

/// Expects `body` to throw a ``RiderError`` with `code`.
func expectError<R>(_ code: RiderError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
                    _ body: () throws -> R) {
    let error = #expect(throws: RiderError.self, comment, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.code == code, comment, sourceLocation: sourceLocation)
}

/// Expects `body` to throw a ``RiderError`` with `code`.
func expectError<R>(_ code: RiderError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
                    _ body: () async throws -> R) async {
    let error = await #expect(throws: RiderError.self, comment, sourceLocation: sourceLocation) { _ = try await body() }
    #expect(error?.code == code, comment, sourceLocation: sourceLocation)
}

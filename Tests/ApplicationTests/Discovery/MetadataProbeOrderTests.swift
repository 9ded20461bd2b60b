import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("ProviderDiscovery in the MCP order: RFC 8414 first, OpenID Connect after, documents merged")
struct MetadataProbeOrderTests {
    static let oauth = "/.well-known/oauth-authorization-server"
    static let openID = "/.well-known/openid-configuration"

    private func discovery(_ issuer: String, _ transport: StubTransport) throws -> ProviderDiscovery {
        var configuration = try ProviderDiscovery.Configuration(issuer: try #require(URL(string: issuer)))
        configuration.probeOrder = .authorizationServerFirst
        return ProviderDiscovery(configuration: configuration, transport: transport, cache: MemoryMetadataCache(),
                                 clock: ManualClock())
    }

    @Test("an issuer with a path: RFC 8414 inserted, OpenID Connect inserted, OpenID Connect appended")
    func orderWithPath() async throws {
        let transport = StubTransport()
        transport.stub(.get, Self.oauth + "/tenant", with: .status(404))
        transport.stub(.get, Self.openID + "/tenant", with: .status(404))
        transport.stub(.get, "/tenant" + Self.openID,
                       with: .successful(ProviderDiscoveryTests.document(issuer: "https://id.example.test/tenant")))
        let discovery = try discovery("https://id.example.test/tenant", transport)

        let metadata = try await discovery.metadata().metadata

        #expect(metadata.issuer == "https://id.example.test/tenant")
        #expect(transport.requests.map(\.url.path) == [Self.oauth + "/tenant", Self.openID + "/tenant", "/tenant" + Self.openID])
        #expect(await discovery.requestCount == 3)
    }

    @Test("the locations listed for both orders")
    func locations() throws {
        let withPath = try #require(URL(string: "https://h.example/t/x/"))
        #expect(ProviderDiscovery.wellKnownURLs(for: withPath, order: .authorizationServerFirst).map(\.absoluteString) == [
            "https://h.example/.well-known/oauth-authorization-server/t/x",
            "https://h.example/.well-known/openid-configuration/t/x",
            "https://h.example/t/x/.well-known/openid-configuration",
        ])
        let root = try #require(URL(string: "https://h.example"))
        #expect(ProviderDiscovery.wellKnownURLs(for: root, order: .authorizationServerFirst).map(\.absoluteString) == [
            "https://h.example/.well-known/oauth-authorization-server", "https://h.example/.well-known/openid-configuration",
        ])
        #expect(ProviderDiscovery.wellKnownURLs(for: root, order: .openIDConnectFirst)
            == ProviderDiscovery.wellKnownURLs(for: root))
    }

    @Test("an issuer without a path: RFC 8414 first; the OpenID document fills only what the first lacks")
    func mergedFromTheSecondDocument() async throws {
        let transport = StubTransport()
        // As django-oauth-toolkit 3.4 publishes them, the other way round: one document lacks the
        // revocation endpoint the other names.
        var first = ProviderDiscoveryTests.document()
        first["revocation_endpoint"] = nil
        first["device_authorization_endpoint"] = nil
        var second = ProviderDiscoveryTests.document(token: "https://id.example.test/other/token")
        second["registration_endpoint"] = "https://id.example.test/register"
        transport.stub(.get, Self.oauth, with: .successful(first))
        transport.stub(.get, Self.openID, with: .successful(second))
        let discovery = try discovery(ProviderDiscoveryTests.issuer, transport)

        let metadata = try await discovery.metadata().metadata

        #expect(transport.requests.map(\.url.path) == [Self.oauth, Self.openID])
        #expect(metadata.endpoints.revocation?.path == "/oauth/revoke")
        #expect(metadata.endpoints.deviceAuthorization?.path == "/oauth/device")
        #expect(metadata.registrationEndpoint?.path == "/register")
        #expect(metadata.endpoints.token?.path == "/oauth/token", "the first document's own endpoints stay")
    }

    @Test("a second document of another issuer, or a missing one, fills nothing and fails nothing")
    func mergeIgnoresOtherIssuers() async throws {
        let transport = StubTransport()
        var first = ProviderDiscoveryTests.document()
        first["revocation_endpoint"] = nil
        transport.stub(.get, Self.oauth, with: .successful(first))
        transport.stub(.get, Self.openID, with: .successful(ProviderDiscoveryTests.document(issuer: "https://evil.example.test")))
        let discovery = try discovery(ProviderDiscoveryTests.issuer, transport)

        #expect(try await discovery.metadata().metadata.endpoints.revocation == nil)

        let missing = StubTransport()
        missing.stub(.get, Self.oauth, with: .successful(first))
        missing.stub(.get, Self.openID, with: .status(404))
        #expect(try await self.discovery(ProviderDiscoveryTests.issuer, missing).metadata().metadata.issuer
            == ProviderDiscoveryTests.issuer)
    }

    @Test("a configured issuer (OpenID first): an OpenID document without revocation_endpoint takes it from RFC 8414's")
    func openIDFirstFillsRevocation() async throws {
        // django-oauth-toolkit 3.4: the OpenID document leaves out the revocation endpoint its
        // RFC 8414 document names, so logging out could not revoke there.
        let transport = StubTransport()
        var openID = ProviderDiscoveryTests.document()
        openID["revocation_endpoint"] = nil
        transport.stub(.get, Self.openID, with: .successful(openID))
        transport.stub(.get, Self.oauth, with: .successful(ProviderDiscoveryTests.document()))
        let configured = ProviderDiscovery(configuration: try .init(issuer: try #require(URL(string: ProviderDiscoveryTests.issuer))),
                                           transport: transport, cache: MemoryMetadataCache(), clock: ManualClock())

        let metadata = try await configured.metadata().metadata

        #expect(metadata.endpoints.revocation?.path == "/oauth/revoke")
        #expect(transport.requests.map(\.url.path) == [Self.openID, Self.oauth])

        let complete = StubTransport()
        complete.stub(.get, Self.openID, with: .successful(ProviderDiscoveryTests.document()))
        _ = try await ProviderDiscovery(configuration: configured.configuration, transport: complete,
                                        cache: MemoryMetadataCache(), clock: ManualClock()).metadata()
        #expect(complete.requests.count == 1, "with a revocation endpoint, one request as before")
    }

    @Test("a first document that names every mergeable endpoint is the only request")
    func completeFirstDocument() async throws {
        let transport = StubTransport()
        var first = ProviderDiscoveryTests.document()
        first["pushed_authorization_request_endpoint"] = "https://id.example.test/par"
        first["registration_endpoint"] = "https://id.example.test/register"
        transport.stub(.get, Self.oauth, with: .successful(first))

        _ = try await discovery(ProviderDiscoveryTests.issuer, transport).metadata()

        #expect(transport.requests.map(\.url.path) == [Self.oauth])
    }

    @Test("a registration endpoint RiderKit would not send to is refused like any endpoint")
    func unusableRegistrationEndpoint() async throws {
        let transport = StubTransport()
        var first = ProviderDiscoveryTests.document()
        first["registration_endpoint"] = "http://id.example.test/register"
        transport.stub(.get, Self.oauth, with: .successful(first))

        let error = await #expect(throws: RiderError.self) {
            try await discovery(ProviderDiscoveryTests.issuer, transport).metadata()
        }
        #expect(error?.code == .invalidConfiguration && error?.message.contains("registration_endpoint") == true)
    }
}

import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderReferenceServer
import Testing
import TestSupport

/// ClientRegistration against the reference server's RFC 7591 endpoint (`/oauth2/register`), over
/// loopback, with the real HTTP client and the file store: an implementation of the other side
/// that shares no code with the client.
@Suite("ClientRegistration against the reference server (RFC 7591 over loopback)")
struct ClientRegistrationAgainstReferenceServerTests {
    /// Counts what goes out, to show that a kept registration asks nothing.
    actor CountingTransport: HTTPTransport {
        let inner: any HTTPTransport
        private(set) var registrations = 0
        init(_ inner: any HTTPTransport) { self.inner = inner }
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            if request.url.path == "/oauth2/register" { registrations += 1 }
            return try await inner.send(request)
        }
    }

    static func metadata(of server: RunningReferenceServer, transport: any HTTPTransport) async throws -> ProviderMetadata {
        let discovery = ProviderDiscovery(configuration: try ProviderDiscovery.Configuration(issuer: server.baseURL),
                                          transport: transport, cache: InMemoryProviderMetadataCache(), clock: SystemClock())
        return try await discovery.metadata().metadata
    }

    static func registration(transport: any HTTPTransport, store: any ClientRegistrationStore,
                             deviceCode: Bool = false) throws -> ClientRegistration {
        var configuration = try ClientRegistration.Configuration(program: .init(
            clientName: "rider", softwareID: "org.riderkit.rider", softwareVersion: RequestIdentity.libraryVersion))
        configuration.wantsDeviceCode = deviceCode
        return ClientRegistration(configuration: configuration, transport: transport, store: store, clock: SystemClock())
    }

    /// What the token endpoint says to `clientID` redeeming a code that was never issued:
    /// `invalid_grant` for a client it knows, `invalid_client` for one it does not.
    static func tokenError(for clientID: String, at metadata: ProviderMetadata, transport: any HTTPTransport) async throws -> String? {
        let token = try #require(metadata.endpoints.token)
        let form = FormEncoding.encode([("grant_type", "authorization_code"), ("code", "never-issued"),
                                        ("redirect_uri", "http://127.0.0.1:4567/callback"), ("client_id", clientID),
                                        ("code_verifier", String(repeating: "v", count: 43))], spaceAsPlus: true)
        let answer = try await transport.send(HTTPRequest(
            method: .post, url: token, headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data(form.utf8), followsRedirects: false))
        return (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["error"] as? String
    }

    @Test("registers a public client the token endpoint then knows; the next process reuses it; forget registers anew")
    func registerReuseForget() async throws {
        try await withReferenceServer { server in
            let folder = try TemporaryDirectory()
            defer { folder.remove() }
            let network = AsyncHTTPClientTransport(configuration: .init(timeout: 30, proxies: .none))
            defer { Task { await network.shutdown() } }
            let transport = CountingTransport(network)
            let metadata = try await Self.metadata(of: server, transport: transport)
            #expect(metadata.registrationEndpoint?.path == "/oauth2/register")

            let client = try await Self.registration(transport: transport,
                                                     store: FileClientRegistrationStore(root: folder.url)).client(for: metadata)

            #expect(client.origin == .dynamic && !client.clientID.isEmpty && client.clientSecret == nil)
            #expect(client.tokenEndpointAuthMethod == "none")
            #expect(Set(client.grantTypes) == ["authorization_code", "refresh_token"])
            #expect(client.mayReceiveIDTokens, "the reference server is an OpenID provider with keys")
            #expect(try await Self.tokenError(for: client.clientID, at: metadata, transport: network) == "invalid_grant")
            #expect(try await Self.tokenError(for: "never-registered", at: metadata, transport: network) == "invalid_client")

            let nextProcess = try Self.registration(transport: transport, store: FileClientRegistrationStore(root: folder.url))
            #expect(try await nextProcess.client(for: metadata) == client)
            #expect(await transport.registrations == 1, "the kept registration was reused without a request")

            try await nextProcess.forget(issuer: metadata.issuer)
            let renewed = try await nextProcess.client(for: metadata)
            let registrations = await transport.registrations
            #expect(renewed.clientID != client.clientID && registrations == 2)
        }
    }

    @Test("the device code grant is registered where the server lists it and accepts the combination")
    func deviceGrant() async throws {
        try await withReferenceServer { server in
            let network = AsyncHTTPClientTransport(configuration: .init(timeout: 30, proxies: .none))
            defer { Task { await network.shutdown() } }
            let metadata = try await Self.metadata(of: server, transport: network)

            let client = try await Self.registration(transport: network, store: InMemoryClientRegistrationStore(),
                                                     deviceCode: true).client(for: metadata)

            #expect(client.grantTypes.contains(ClientRegistration.deviceCodeGrant))
        }
    }
}

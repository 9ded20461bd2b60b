import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import Testing
import TestSupport

/// ClientRegistration against a provider RiderKit's authors did not write: Glewlwyd 2.7.5's OpenID
/// Connect plugin with RFC 7591 registration open (`DPOP_PROVIDER_REGISTRATION=open`,
/// scripts/dpop-provider.sh), discovered the way a protected resource's authorization server is.
@Suite("ClientRegistration against Glewlwyd 2.7.5 (RFC 7591, an independent provider)", .serialized)
struct ClientRegistrationGlewlwydTests {
    @Test("registers a public client Glewlwyd then knows; the next process reuses it; forget registers anew")
    func registerReuseForget() async throws {
        try await DPoPProvider.with(settings: ["DPOP_PROVIDER_REGISTRATION": "open"]) { provider in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-registration-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let network = AsyncHTTPClientTransport(configuration: .init(timeout: 30, proxies: .none))
            defer { Task { await network.shutdown() } }
            var settings = try ProviderDiscovery.Configuration(issuer: provider.issuer)
            settings.probeOrder = .authorizationServerFirst
            let metadata = try await ProviderDiscovery(configuration: settings, transport: network,
                                                       cache: InMemoryProviderMetadataCache(), clock: SystemClock())
                .metadata().metadata
            #expect(metadata.registrationEndpoint?.absoluteString == provider.issuer.absoluteString + "/register")
            func registration() throws -> ClientRegistration {
                var configuration = try ClientRegistration.Configuration(program: .init(
                    clientName: "rider", softwareID: "org.riderkit.rider", softwareVersion: RequestIdentity.libraryVersion))
                // Glewlwyd compares redirect URIs port and all.
                configuration.redirectPort = Int(provider.redirectPort)
                return ClientRegistration(configuration: configuration, transport: network,
                                          store: FileClientRegistrationStore(root: folder), clock: SystemClock())
            }

            let client = try await registration().client(for: metadata)

            #expect(client.origin == .dynamic && !client.clientID.isEmpty && client.clientSecret == nil)
            #expect(client.tokenEndpointAuthMethod == "none", "Glewlwyd answers [\"none\"]")
            #expect(client.redirectURIs.contains("http://127.0.0.1:\(provider.redirectPort)/callback"))
            #expect(client.mayReceiveIDTokens)
            let known = try await Self.tokenError(for: client.clientID, at: metadata, port: provider.redirectPort, network)
            let unknown = try await Self.tokenError(for: "never-registered", at: metadata, port: provider.redirectPort, network)
            // Glewlwyd 2.7.5 refuses the code of a client it knows (403 invalid_code) and the client
            // it does not know (403 unauthorized_client).
            #expect(known == "403 invalid_code")
            #expect(unknown == "403 unauthorized_client")

            let again = try await registration().client(for: metadata)
            #expect(again == client, "the next process reads the kept registration")

            try await registration().forget(issuer: metadata.issuer)
            let renewed = try await registration().client(for: metadata)
            #expect(renewed.clientID != client.clientID)
        }
    }

    /// What the token endpoint says to `clientID` redeeming a code that was never issued.
    static func tokenError(for clientID: String, at metadata: ProviderMetadata, port: UInt16,
                           _ transport: any HTTPTransport) async throws -> String {
        let token = try #require(metadata.endpoints.token)
        let form = FormEncoding.encode([("grant_type", "authorization_code"), ("code", "never-issued"),
                                        ("redirect_uri", "http://127.0.0.1:\(port)/callback"), ("client_id", clientID),
                                        ("code_verifier", String(repeating: "v", count: 43))])
        let answer = try await transport.send(HTTPRequest(
            method: .post, url: token, headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data(form.utf8), followsRedirects: false))
        let error = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["error"] as? String
        return "\(answer.status) \(error ?? "-")"
    }
}

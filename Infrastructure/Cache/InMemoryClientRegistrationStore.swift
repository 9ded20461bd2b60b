import Foundation
import RiderDomain

/// Keeps client registrations in memory, secrets included, for one process.
package actor InMemoryClientRegistrationStore: ClientRegistrationStore {
    private var clients: [String: RegisteredClient]

    /// - Parameter clients: registrations to start with.
    package init(_ clients: [RegisteredClient] = []) {
        self.clients = Dictionary(clients.map { ($0.issuer, $0) }, uniquingKeysWith: { $1 })
    }

    package func load(issuer: String) async throws -> RegisteredClient? { clients[issuer] }

    package func save(_ client: RegisteredClient) async throws { clients[client.issuer] = client }

    package func remove(issuer: String) async throws { clients[issuer] = nil }
}

import Foundation
import RiderDomain

/// The authorization server of the protected resource a program signs in to, learnt from the
/// resource's URL alone (RFC 9728, ``ProtectedResourceDiscovery``) once per program and then
/// kept: every sign-in, refresh and revocation of the program asks the same server, and
/// concurrent first asks share one discovery.
///
/// A failed discovery is not kept, so the next ask tries again (a resource that was down, a
/// provider that was restarting).
///
/// The issuer chosen is kept on disk beside the providers' metadata, so a later process that only
/// refreshes, revokes or reads its session reaches the provider without asking the resource
/// (which may be down, or the machine offline). A sign-in always asks the resource afresh: what it
/// names — the authorization servers, the scope — may have changed.
package actor ProtectedResourceAuthority {
    /// How the resource is asked.
    package nonisolated let discovery: ProtectedResourceDiscovery
    private nonisolated let environment: ProtectedResourceDiscovery.Environment
    private var learning: Task<ProtectedResourceDiscovery.Discovered, any Error>?

    /// - Parameters:
    ///   - discovery: how the resource is asked.
    ///   - environment: where the chosen issuer is kept, and how its metadata is read.
    package init(discovery: ProtectedResourceDiscovery, environment: ProtectedResourceDiscovery.Environment) {
        self.discovery = discovery
        self.environment = environment
    }

    /// The authorization server's metadata reader: the issuer this program chose for the resource
    /// before, where it kept one (and it is still the configured issuer, when one is configured),
    /// else the one discovery chooses now.
    /// - Throws: what ``discovered()`` throws; `RiderError.invalidConfiguration(_:)` for a kept
    ///   issuer that is no longer a URL.
    package func provider() async throws -> ProviderDiscovery {
        if learning == nil, let kept = await environment.cache.issuer(ofResource: resource.absoluteString),
           let issuer = URL(string: kept), discovery.configuration.issuer.map({ $0 == issuer }) ?? true {
            var configuration = try ProviderDiscovery.Configuration(issuer: issuer)
            configuration.requestTimeout = discovery.configuration.requestTimeout
            return ProviderDiscovery(configuration: configuration, transport: environment.transport,
                                     cache: environment.cache, clock: environment.clock)
        }
        return try await discovered().provider
    }

    /// The resource named in sign-ins (RFC 8707's `resource`): the URL its metadata was checked
    /// to name.
    package nonisolated var resource: URL { discovery.configuration.resource }

    /// What discovery learnt: the resource's metadata and challenge, and its authorization server.
    /// - Throws: what ``ProtectedResourceDiscovery/discover(reload:)`` throws.
    package func discovered() async throws -> ProtectedResourceDiscovery.Discovered {
        let task: Task<ProtectedResourceDiscovery.Discovered, any Error>
        if let learning {
            task = learning
        } else {
            let (discovery, cache, resource) = (discovery, environment.cache, resource)
            task = Task {
                let learnt = try await discovery.discover()
                // Kept for later processes, once per discovery; losing it only costs them a request
                // to the resource.
                try? await cache.saveIssuer(learnt.provider.configuration.issuer.absoluteString,
                                            ofResource: resource.absoluteString)
                return learnt
            }
            learning = task
        }
        do {
            return try await task.value
        } catch {
            // Only the failed attempt is forgotten: another caller may have started anew meanwhile.
            if learning == task { learning = nil }
            throw error
        }
    }

    /// The scope a sign-in to the resource asks for when none is configured (MCP authorization,
    /// "Scope Selection Strategy"): the one its challenge named, else every scope its metadata
    /// lists, else none.
    package func scope() async throws -> String? {
        let learnt = try await discovered()
        if let challenged = learnt.challenge?.scope, !challenged.isEmpty { return challenged }
        guard let listed = learnt.metadata.scopesSupported, !listed.isEmpty else { return nil }
        return listed.joined(separator: " ")
    }
}

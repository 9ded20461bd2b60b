import Foundation
import RiderDomain

/// Learns an OAuth 2.0 provider's endpoints from its issuer URL alone: OpenID Connect Discovery
/// (`{issuer}/.well-known/openid-configuration`), else RFC 8414
/// (`/.well-known/oauth-authorization-server`, path-inserted for an issuer with a path).
///
/// A document is used only when its `issuer` is the configured one, character for character
/// (RFC 8414 §3.3), and every endpoint in it passes the checks a configured URL does (https, or
/// plain http to a loopback address; no user name or password). The metadata is kept through a
/// `ProviderMetadataCache` for as long as the provider's `Cache-Control: max-age` allows (a
/// day when it does not say, at most ``Configuration/maximumLifetime``), so a command-line start
/// does not ask every time. Concurrent first uses fetch once.
///
/// Within one instance (a `rider` command, a program's `RiderKit`) a document just fetched is
/// used for at least 15 minutes (`reuseInProcess`) whatever its cache headers say: a provider that sends
/// `Cache-Control: no-store` is then asked once per sign-in, not once for each endpoint the
/// sign-in looks up. What is kept on disk still follows the headers alone.
public actor ProviderDiscovery {
    /// What to discover and how long to keep it.
    public struct Configuration: Hashable, Sendable {
        /// The issuer identifier, exactly as the provider spells it.
        public let issuer: URL
        /// How long metadata is kept when the provider does not say (`Cache-Control`).
        public var defaultLifetime: TimeInterval
        /// The longest metadata is kept, whatever the provider says.
        public var maximumLifetime: TimeInterval
        /// How long one metadata request may take.
        public var requestTimeout: TimeInterval
        /// Where the metadata is looked for, and whether documents are merged.
        package var probeOrder: MetadataProbeOrder = .openIDConnectFirst

        /// - Parameters:
        ///   - issuer: the issuer identifier.
        ///   - defaultLifetime: a day unless told.
        ///   - maximumLifetime: a week unless told.
        ///   - requestTimeout: 15 seconds unless told.
        /// - Throws: `RiderError.invalidConfiguration(_:)` when `issuer` is not an https URL
        ///   (or http to a loopback address) without user name, password, query or fragment.
        public init(issuer: URL, defaultLifetime: TimeInterval = 86_400, maximumLifetime: TimeInterval = 7 * 86_400,
                    requestTimeout: TimeInterval = 15) throws {
            try ProviderDiscovery.checkIssuer(issuer)
            self.issuer = issuer
            self.defaultLifetime = max(0, defaultLifetime)
            self.maximumLifetime = max(0, maximumLifetime)
            self.requestTimeout = requestTimeout
        }
    }

    /// Metadata with where it came from and how long it may be reused.
    package struct Discovered: Hashable, Sendable {
        package var metadata: ProviderMetadata
        /// When it was downloaded.
        package var storedAt: Date
        /// Until when it is reused without asking the provider; `storedAt` when it is not kept.
        package var expiresAt: Date
        /// `.network` when this call asked the provider, `.cache` when the kept copy was fresh,
        /// `.offline(reason:)` when the provider could not be reached and an expired copy was used.
        package var source: DataSource

        /// - Parameters:
        ///   - metadata: the metadata.
        ///   - storedAt: when it was downloaded.
        ///   - expiresAt: until when it is reused.
        ///   - source: where this answer came from.
        package init(metadata: ProviderMetadata, storedAt: Date, expiresAt: Date, source: DataSource) {
            self.metadata = metadata
            self.storedAt = storedAt
            self.expiresAt = expiresAt
            self.source = source
        }
    }

    /// The issuer and lifetimes.
    package nonisolated let configuration: Configuration
    /// The issuer as compared with documents: its URL's text as configured.
    nonisolated var issuer: String { configuration.issuer.absoluteString }
    private let transport: any HTTPTransport
    private let cache: any ProviderMetadataCache
    private let clock: any Clock
    /// The metadata this process holds, fresh or not.
    private var current: StoredProviderMetadata?
    /// Until when ``current`` is used without asking: its expiry, or at least ``reuseInProcess``
    /// after it was fetched.
    private var currentUsableUntil: Date?
    /// The shortest time a document fetched by this instance is used for, whatever its headers.
    /// Long enough to cover one sign-in (its browser or device wait included), short enough that
    /// a long-running program sees a provider's change within minutes.
    package static let reuseInProcess: TimeInterval = 15 * 60
    private var inFlight: Task<Discovered, any Error>?
    /// How many metadata documents were requested (for tests and diagnostics).
    package private(set) var requestCount = 0

    /// - Parameters:
    ///   - configuration: the issuer and lifetimes.
    ///   - transport: sends the metadata requests. They carry no credentials; give a transport
    ///     that does not follow redirects itself (redirects within the issuer's origin are
    ///     followed here, others refused).
    ///   - cache: where metadata is kept between runs.
    ///   - clock: tells whether the kept metadata is still fresh.
    package init(configuration: Configuration, transport: any HTTPTransport, cache: any ProviderMetadataCache,
                 clock: any Clock) {
        self.configuration = configuration
        self.transport = transport
        self.cache = cache
        self.clock = clock
    }

    /// The provider's metadata: the kept copy while it is fresh, else the provider's answer.
    /// - Parameter reload: ask the provider even when the kept copy is fresh.
    /// - Returns: the metadata, when it was fetched and where this answer came from.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when the provider offers no metadata, or
    ///   a document of another issuer or with an unusable endpoint (nothing is then kept);
    ///   `RiderError.malformedResponse(_:)` for a document that is not JSON metadata; network
    ///   errors as they come.
    package func metadata(reload: Bool = false) async throws -> Discovered {
        if !reload, let current, let currentUsableUntil, current.storedAt <= clock.now, clock.now < currentUsableUntil {
            return Discovered(metadata: current.metadata, storedAt: current.storedAt, expiresAt: current.expiresAt,
                              source: .cache)
        }
        if let inFlight { return try await inFlight.value }
        let task = Task { try await self.load(reload: reload) }
        inFlight = task
        defer { inFlight = nil }
        return try await task.value
    }

    /// Reads the kept copy when it is fresh; otherwise asks the provider and keeps the answer.
    private func load(reload: Bool) async throws -> Discovered {
        let kept = await cache.load(issuer: issuer).flatMap { stored -> StoredProviderMetadata? in
            // Checked again as if it had just arrived: the file is only as good as its last writer.
            (try? check(stored.metadata)).map { _ in stored }
        }
        if !reload, let kept, kept.isFresh(at: clock.now) {
            current = kept
            currentUsableUntil = kept.expiresAt
            return Discovered(metadata: kept.metadata, storedAt: kept.storedAt, expiresAt: kept.expiresAt, source: .cache)
        }
        let fetched: (metadata: ProviderMetadata, lifetime: TimeInterval?)
        do {
            fetched = try await fetch()
        } catch let error as RiderError where error.isTransient {
            // Unreachable: an expired copy of the same issuer still names the right endpoints more
            // surely than nothing does; it is not kept any longer for this.
            guard let stale = kept ?? current else { throw error }
            return Discovered(metadata: stale.metadata, storedAt: stale.storedAt, expiresAt: stale.expiresAt,
                              source: .offline(reason: error))
        }
        let now = clock.now
        let stored = StoredProviderMetadata(metadata: fetched.metadata, storedAt: now,
                                            expiresAt: now.addingTimeInterval(fetched.lifetime ?? 0))
        current = stored
        currentUsableUntil = max(stored.expiresAt, now.addingTimeInterval(Self.reuseInProcess))
        // Kept data is derived and public: failing to keep it must not fail the sign-in.
        if fetched.lifetime != nil {
            try? await cache.save(stored)
        } else {
            try? await cache.remove(issuer: issuer)
        }
        return Discovered(metadata: stored.metadata, storedAt: now, expiresAt: stored.expiresAt, source: .network)
    }

    /// Asks the well-known locations in turn, the next only when one answers 4xx. The first
    /// document's missing endpoints are then taken from the later locations' documents of the
    /// same issuer: in the ``MetadataProbeOrder/authorizationServerFirst`` order when it lacks any
    /// of them, in the OpenID-first order only when it lacks the revocation endpoint (which
    /// logging out needs, and django-oauth-toolkit's OpenID document leaves out).
    private func fetch() async throws -> (metadata: ProviderMetadata, lifetime: TimeInterval?) {
        var tried: [String] = []
        var found: (metadata: ProviderMetadata, lifetime: TimeInterval?)?
        for url in Self.wellKnownURLs(for: configuration.issuer, order: configuration.probeOrder) {
            if var first = found {
                guard Self.lacksMergeableEndpoint(first.metadata, order: configuration.probeOrder) else { break }
                // The first document decides; another only fills its gaps, and one that fails in
                // any way (absent, another issuer, unusable) is passed over.
                if let other = try? await document(at: url), (try? check(other.metadata)) != nil {
                    first.metadata = Self.merged(first.metadata, filledFrom: other.metadata)
                    found = first
                }
                continue
            }
            if let answer = try await document(at: url) {
                try check(answer.metadata)
                found = answer
            } else {
                tried.append(url.absoluteString)
            }
        }
        if let found { return found }
        throw RiderError.invalidConfiguration("the issuer \(issuer) publishes no metadata (tried "
            + tried.joined(separator: " and ") + "); check the issuer, or leave it unset and set token_path "
            + "and the other endpoints instead")
    }

    /// The document at `url`, with how long it may be kept; `nil` when the location answers 4xx
    /// (but 429): nothing there.
    private func document(at url: URL) async throws -> (metadata: ProviderMetadata, lifetime: TimeInterval?)? {
        let response = try await get(url)
        if response.isSuccess {
            let dto = try ContractCoding.decode(ProviderMetadataDTO.self, from: response.body,
                                                what: "the provider metadata at \(url.path)")
            return (try dto.toDomain(), Self.lifetime(cacheControl: response.headers["Cache-Control"], configuration))
        }
        guard (400..<500).contains(response.status), response.status != 429 else {
            throw ProblemMapping.error(for: response)
        }
        return nil
    }

    /// `GET url` without credentials, following redirects within the issuer's origin only.
    private func get(_ url: URL) async throws -> HTTPResponse {
        var target = url
        for _ in 0...3 {
            requestCount += 1
            let request = HTTPRequest(method: .get, url: target, headers: ["Accept": "application/json"],
                                      timeout: configuration.requestTimeout, followsRedirects: false)
            let response = try await transport.send(request)
            guard [301, 302, 303, 307, 308].contains(response.status) else { return response }
            guard let location = response.headers["Location"],
                  let next = URL(string: location, relativeTo: target)?.absoluteURL,
                  APIConfiguration.origin(of: next) == APIConfiguration.origin(of: configuration.issuer),
                  (try? APIConfiguration.validate(next)) != nil
            else {
                throw RiderError.invalidConfiguration("the provider metadata at \(url.path) redirects away from "
                    + "\(APIConfiguration.origin(of: configuration.issuer)); RiderKit reads metadata from the issuer only")
            }
            target = next
        }
        throw RiderError.invalidConfiguration("the provider metadata at \(url.path) redirects too often")
    }

    /// Refuses metadata of another issuer (RFC 8414 §3.3, OpenID Connect Discovery §4.3) or with
    /// an endpoint RiderKit would refuse as configuration.
    func check(_ metadata: ProviderMetadata) throws {
        guard metadata.issuer == issuer else {
            throw RiderError.invalidConfiguration("the provider metadata names the issuer "
                + "'\(ProblemMapping.clip(metadata.issuer))', not the configured '\(issuer)'; metadata is only "
                + "used when they are exactly equal (RFC 8414 §3.3): if the provider is right, set the issuer "
                + "to exactly its value")
        }
        try Self.check(metadata.endpoints)
        try Self.check(registration: metadata.registrationEndpoint)
    }
}

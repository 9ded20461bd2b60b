import Foundation
public import RiderDomain
public import RiderKit
public import RiderReferenceServer

extension RunningReferenceServer {
    /// RiderKit as a program gets it from the composition root (`RiderKit.live`), pointed at this
    /// server: the default AsyncHTTPClient transport with no proxy, the session vault in memory, so
    /// nothing is written unless the cache is told to be a file.
    ///
    /// Timeouts are generous: the whole suite runs at once, and a request that times out in a
    /// queue would turn a correctness test into a speed test.
    /// - Parameters:
    ///   - api: the server's address, paths and client; this server's address and the contract's
    ///     defaults unless told.
    ///   - cache: where users are cached; in memory unless told.
    ///   - metrics: where request, refresh and cache counts go; nowhere unless told.
    ///   - transport: the transport requests go out with; AsyncHTTPClient unless told.
    /// - Returns: the wired RiderKit.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when the configuration is refused.
    public func riderKit(api: APIConfiguration? = nil,
                         cache: CacheConfiguration = CacheConfiguration(storage: .memory),
                         metrics: (any MetricsRecorder)? = nil,
                         transport: (any HTTPTransport)? = nil) throws -> RiderKit {
        try RiderKit.live(configuration: RiderKit.Configuration(
            api: try api ?? APIConfiguration(baseURL: baseURL, requestTimeout: 60),
            vault: .memory,
            cache: cache,
            transport: transport,
            proxies: .none,
            metrics: metrics))
    }
}

extension Credentials {
    /// The reference server's demo account (`u_000000`), as every server starts with it.
    public static let referenceDemo = Credentials(email: "demo@example.com", password: "rider-demo")
}

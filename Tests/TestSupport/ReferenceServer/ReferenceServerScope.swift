public import RiderReferenceServer

/// Runs `body` against a fresh reference server on a loopback port and returns once the server
/// has stopped, whether `body` returned or threw.
///
/// The one way RiderKit's tests start and stop the reference server: the stop is awaited on every
/// path, so no server outlives its test and no port or task is left for the next one. A test may
/// stop the server itself (to go offline); stopping again does nothing. Nest two calls for two
/// servers.
///
/// - Parameters:
///   - configuration: the server's settings; by default 200 seeded users and access tokens that
///     outlive the slowest test on the slowest runner, so no refresh happens unless a test
///     asks for one (`store.expireAccessTokens()`).
///   - body: the test, given the running server.
/// - Returns: what `body` returns.
/// - Throws: what starting the server or `body` throws.
public func withReferenceServer<T>(
    _ configuration: ReferenceServerConfiguration = ReferenceServerConfiguration(seedUsers: 200,
                                                                                 accessTokenTTL: .seconds(3600)),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (RunningReferenceServer) async throws -> T
) async throws -> T {
    let server = try await ReferenceServer.start(configuration)
    let outcome: Result<T, any Error>
    do {
        outcome = .success(try await body(server))
    } catch {
        outcome = .failure(error)
    }
    await server.stop()
    return try outcome.get()
}

import Foundation
import RiderDomain

/// Lists the server's sport catalogue, reusing it while the server says it is fresh.
public struct ListSports: Sendable {
    let api: APIClient
    let memo: SportCatalogueMemo
    let clock: any Clock

    public init(api: APIClient, memo: SportCatalogueMemo = SportCatalogueMemo(), clock: any Clock) {
        self.api = api
        self.memo = memo
        self.clock = clock
    }

    /// - Parameter reload: ask the server even when the kept catalogue is still fresh.
    /// - Returns: the catalogue; its ``Cached/source`` says whether the server was asked.
    /// - Throws: network errors, ``RiderError/malformedResponse(_:)``. No session is needed.
    public func callAsFunction(reload: Bool = false) async throws -> Cached<[Sport]> {
        if !reload, let kept = await memo.fresh(at: clock.now) { return kept }
        let response = try await api.send(API.sports)
        let now = clock.now
        await memo.store(response.value, at: now, maxAge: response.maxAge)
        return Cached(value: response.value, storedAt: now, source: .network)
    }
}

import Hummingbird

extension ReferenceResponder {
    /// `GET /_test/stats`: the store's counters, for tests that run the server in another process.
    func testStats() async throws -> Response {
        try Responses.json(await store.stats(), headers: Self.noStore)
    }

    /// `POST /_test/expire-access-tokens`: ``ReferenceStore/expireAccessTokens()`` over HTTP.
    func testExpireAccessTokens() async -> Response {
        await store.expireAccessTokens()
        return Response(status: .noContent)
    }
}

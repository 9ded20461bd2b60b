import RiderKit
import RiderKitTesting
import Testing

@Test func wrongPasswordIsExplained() async throws {
    let server = StubTransport.successful()          // every API route answered with sample data
    server.stub(.post, "/auth/token", with: .tokenError("invalid_grant"))   // …but this one
    let rider = try RiderKit.testing(transport: server)

    await #expect(throws: RiderError.invalidCredentials) { try await rider.login(Fixtures.credentials) }
    #expect(server.requests(.post, "/auth/token").first?.formFields["username"] == Fixtures.email)
}

import Foundation
@testable import RiderReferenceServer
import Testing

@Suite("POST /auth/token throttles failed password grants")
struct LoginThrottleTests {
    static func configuration(perEmail: Int = 3, perClient: Int = 100, window: Duration = .seconds(300)) -> ReferenceServerConfiguration {
        ReferenceServerConfiguration(seedUsers: 5, accessTokenTTL: .seconds(3600),
                                     loginThrottle: LoginThrottle(failuresPerEmail: perEmail, failuresPerClient: perClient, window: window))
    }

    private func passwordGrant(_ server: TestServer, _ email: String, _ password: String) async throws -> TestResponse {
        try await server.postForm("/auth/token", [("grant_type", "password"), ("username", email), ("password", password)])
    }

    @Test("after N wrong passwords for one email, the next attempt is 429 with Retry-After, even with the right password")
    func perEmail() async throws {
        try await TestServer.with(Self.configuration(perEmail: 3)) { server in
            for _ in 0..<3 {
                #expect(try await passwordGrant(server, "demo@example.com", "wrong-password").status == 400)
            }
            let throttled = try await passwordGrant(server, "DEMO@example.com", "rider-demo")
            #expect(throttled.status == 429, "counted without regard to case, and the password is not looked at")
            #expect(throttled.header("Content-Type") == "application/problem+json")
            #expect(throttled.header("Cache-Control") == "no-store")
            let retryAfter = try #require(throttled.header("Retry-After").flatMap { Int($0) })
            #expect((1...300).contains(retryAfter))
            let problem = try throttled.decode(ProblemBody.self)
            #expect(problem.type == "https://riderkit.invalid/problems/too-many-requests")
            #expect(problem.status == 429)
            #expect(await server.store.stats().passwordGrants == 0)
            // Another rider is not held back by someone else's failures.
            #expect(try await passwordGrant(server, "user000001@example.invalid", "nope").status == 400)
        }
    }

    @Test("wrong passwords for many emails from one client throttle that client")
    func perClient() async throws {
        try await TestServer.with(Self.configuration(perEmail: 100, perClient: 4)) { server in
            for index in 0..<4 {
                #expect(try await passwordGrant(server, "guess\(index)@example.com", "wrong-password").status == 400)
            }
            let throttled = try await passwordGrant(server, "demo@example.com", "rider-demo")
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After") != nil)
        }
    }

    @Test("a successful login clears its email's failures")
    func successResets() async throws {
        try await TestServer.with(Self.configuration(perEmail: 3)) { server in
            for _ in 0..<2 { _ = try await passwordGrant(server, "demo@example.com", "wrong-password") }
            #expect(try await passwordGrant(server, "demo@example.com", "rider-demo").status == 200)
            for _ in 0..<2 { _ = try await passwordGrant(server, "demo@example.com", "wrong-password") }
            #expect(try await passwordGrant(server, "demo@example.com", "rider-demo").status == 200)
        }
    }

    @Test("the throttle lifts once the failures leave the window, and Retry-After counts down to that moment")
    func windowPasses() {
        // The sliding window itself, on given instants: no test sleeps, and a slow machine cannot
        // move a failure out of the window before the check.
        var failures = FailedLogins(settings: LoginThrottle(failuresPerEmail: 2, failuresPerClient: 100, window: .seconds(300)))
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        failures.recordFailure(email: "demo@example.com", client: "127.0.0.1", now: start)
        failures.recordFailure(email: "demo@example.com", client: "127.0.0.1", now: start.addingTimeInterval(10))
        #expect(failures.retryAfter(email: "DEMO@example.com", client: "127.0.0.1", now: start.addingTimeInterval(20)) == 280)
        #expect(failures.retryAfter(email: "demo@example.com", client: "127.0.0.1",
                                    now: start.addingTimeInterval(299.5)) == 1, "rounded up to whole seconds")
        #expect(failures.retryAfter(email: "demo@example.com", client: "127.0.0.1", now: start.addingTimeInterval(300.5)) == nil,
                "the first failure has left the window")
    }

    @Test("refresh grants are never throttled, and malformed requests do not count as failed passwords")
    func onlyPasswordFailuresCount() async throws {
        try await TestServer.with(Self.configuration(perEmail: 1, perClient: 1)) { server in
            let token = try await server.login()
            for _ in 0..<3 {
                #expect(try await server.refresh("not-a-refresh-token").status == 400)
                #expect(try await server.postForm("/auth/token", [("grant_type", "password"), ("username", "demo@example.com")]).status == 400)
            }
            #expect(try await server.refresh(token.refreshToken).status == 200)
            #expect(try await server.login().userID == "u_000000")
        }
    }

    @Test("the defaults leave room for every test, benchmark and demo: 10 per email and 200 per client over 5 minutes")
    func defaults() {
        let throttle = ReferenceServerConfiguration().loginThrottle
        #expect(throttle.failuresPerEmail == 10)
        #expect(throttle.failuresPerClient == 200)
        #expect(throttle.window == .seconds(300))
    }
}

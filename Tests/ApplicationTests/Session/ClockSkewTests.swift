import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Session engine: a device clock that is minutes off")
struct ClockSkewTests {
    /// An unsigned JWT whose `exp` is `expiry` (the signature is never checked by the client).
    static func jwt(expiringAt expiry: Date, id: String) -> String {
        func encode(_ json: String) -> String {
            Data(json.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return encode(#"{"alg":"none"}"#) + "." + encode(#"{"sub":"u_000001","jti":"\#(id)","exp":\#(Int(expiry.timeIntervalSince1970))}"#) + ".sig"
    }

    /// A token endpoint that, like many OAuth servers, sends a JWT and no `expires_in`, and
    /// whose clock is `serverOffset` seconds from the device's.
    private func stubJWTServer(_ harness: UseCaseHarness, serverOffset: TimeInterval) {
        harness.transport.stub(.post, "/auth/token") { [clock = harness.clock] _ in
            let serverNow = clock.now.addingTimeInterval(serverOffset)
            let token = Self.jwt(expiringAt: serverNow.addingTimeInterval(3600), id: UUID().uuidString)
            return .successful(Fixtures.tokenResponse(accessToken: token, expiresIn: nil, refreshToken: "refresh-\(UUID().uuidString)"),
                               headers: ["Date": HTTPDate.format(serverNow)])
        }
        harness.transport.stub(.get, "/riders/me") { [clock = harness.clock] request in
            // The server judges expiry by its own clock.
            let serverNow = clock.now.addingTimeInterval(serverOffset)
            guard let token = request.bearerToken,
                  let payload = token.split(separator: ".").dropFirst().first,
                  let expiry = Self.expiry(of: String(payload)), expiry > serverNow
            else { return .problem(status: 401) }
            return .successful(Fixtures.rider(), headers: ["ETag": "\"v1\""])
        }
    }

    private static func expiry(of payload: String) -> Date? {
        var base64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let exp = object["exp"] as? Int else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(exp))
    }

    @Test("device clock 10 minutes ahead of the server: the expiry is exact, no refresh storm, one refresh near the end",
          arguments: [600.0, -600.0])
    func skewedClock(deviceAhead: TimeInterval) async throws {
        let harness = try UseCaseHarness()
        stubJWTServer(harness, serverOffset: -deviceAhead)

        let session = try await harness.login(Fixtures.credentials)
        #expect(session.expiresAt == Fixtures.epoch.addingTimeInterval(3600), "expiry measured on the device's clock")
        #expect(await harness.sessions.clockSkew == -deviceAhead)

        // A request a minute for 58 minutes: the token is good all along, nothing is refreshed.
        for _ in 0..<58 {
            harness.clock.advance(by: 60)
            _ = try await harness.getRider()
        }
        #expect(harness.transport.count(.post, "/auth/token") == 1, "only the login")
        // Within the leeway of the real expiry, one proactive refresh, and no 401 ever.
        harness.clock.advance(by: 60)
        _ = try await harness.getRider()
        await harness.sessions.finishRefreshing()
        #expect(harness.transport.count(.post, "/auth/token") == 2)
        #expect(harness.transport.requests(.get, "/riders/me").count == 59, "no request was rejected and retried")
    }

    @Test("expires_in is measured from the device's own clock, so skew cannot distort it")
    func relativeExpiryIgnoresSkew() async throws {
        let harness = try UseCaseHarness()
        let serverDate = Fixtures.epoch.addingTimeInterval(-600)
        harness.stubTokenEndpoint(times: 1, with: .successful(Fixtures.tokenResponse(), headers: ["Date": HTTPDate.format(serverDate)]))

        let session = try await harness.login(Fixtures.credentials)

        #expect(session.expiresAt == Fixtures.epoch.addingTimeInterval(3600))
        #expect(await harness.sessions.clockSkew == -600)
    }
}

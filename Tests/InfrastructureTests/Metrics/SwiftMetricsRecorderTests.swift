import Foundation
import MetricsTestKit
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

@Suite("swift-metrics counters")
struct SwiftMetricsRecorderTests {
    @Test("each event increments its counter with its dimensions; the prefix names them")
    func counters() throws {
        let metrics = TestMetrics()
        let recorder = SwiftMetricsRecorder(prefix: "app_rider", factory: metrics)

        recorder.record(.request(method: .get, outcome: .status(200)))
        recorder.record(.request(method: .get, outcome: .status(200)))
        recorder.record(.request(method: .post, outcome: .failed))
        recorder.record(.request(method: .get, outcome: .timedOut))
        recorder.record(.retry(method: .get))
        recorder.record(.refresh(.renewed))
        recorder.record(.refresh(.rejected))
        recorder.record(.cacheLookup(hit: true))
        recorder.record(.cacheLookup(hit: false))
        recorder.record(.cacheLookup(hit: false))

        func total(_ label: String, _ dimensions: [(String, String)]) throws -> Int64 {
            try metrics.expectCounter(label, dimensions).totalValue
        }
        #expect(try total("app_rider_http_requests_total", [("method", "GET"), ("status", "200")]) == 2)
        #expect(try total("app_rider_http_requests_total", [("method", "POST"), ("status", "failed")]) == 1)
        #expect(try total("app_rider_http_requests_total", [("method", "GET"), ("status", "timeout")]) == 1)
        #expect(try total("app_rider_http_retries_total", [("method", "GET")]) == 1)
        #expect(try total("app_rider_session_refreshes_total", [("outcome", "renewed")]) == 1)
        #expect(try total("app_rider_session_refreshes_total", [("outcome", "rejected")]) == 1)
        #expect(try total("app_rider_cache_lookups_total", [("result", "hit")]) == 1)
        #expect(try total("app_rider_cache_lookups_total", [("result", "miss")]) == 2)
    }

    @Test("no label or dimension carries a token, a password, a URL or an e-mail address")
    func nothingPersonal() async throws {
        let metrics = TestMetrics()
        try await withReferenceServer(.init(seedUsers: 5)) { server in
            let kit = try server.riderKit(metrics: SwiftMetricsRecorder(factory: metrics))

            let session = try await kit.login(.referenceDemo)
            _ = try await kit.currentUser(policy: .networkOnly)
            _ = try await kit.sessions.refresh()

            #expect(try metrics.expectCounter("rider_session_refreshes_total", [("outcome", "renewed")]).totalValue == 1)
            let everything = metrics.counters.map { "\($0.label) \($0.dimensions)" }.joined(separator: "\n")
            #expect(everything.contains("rider_http_requests_total"))
            for secret in [session.accessToken, session.refreshToken ?? "-", Credentials.referenceDemo.password,
                           Credentials.referenceDemo.email, server.baseURL.absoluteString, "/auth/"] {
                #expect(!everything.contains(secret))
            }
        }
    }
}

import Crypto
import Foundation
import RiderKit
import RiderOpenIDConnect

/// What DPoP (RFC 9449) costs: a proof next to swift-crypto's bare ES256 signature of as many
/// bytes; the whole stack with a DPoP-bound session next to the same stack with a bearer session
/// against the same rider-server (each request signs a proof, the server checks it); and the same
/// pair over a transport that answers at once, where every difference is the client's proof.
struct DPoPScenario {
    var proofs = 2_000
    var sequential = 2_000
    var concurrent = 4_000
    var tasks = 32
    var rounds = 5
    /// Only this whole-stack column, sequential then 32 tasks, for as many rounds, so a profiler
    /// attached to either process sees one kind of request (`--only bearer|dpop`); no table rows.
    var only: Column?

    enum Column: String, CaseIterable, Sendable { case bearer, dpop }

    static let smoke = DPoPScenario(proofs: 20, sequential: 20, concurrent: 64, tasks: 32, rounds: 1)

    func run(on server: ServerProcess) async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "DPoP",
            floorDescription: "swift-crypto's ES256 signature alone; the same stack with a bearer session")
        let me = try server.api.baseURL.appendingPathComponent("auth/me")

        // A proof: claims, header with the public jwk, SHA-256 of the token (ath), one ES256 signature.
        let key = JWTKitDPoPKey()
        let bare = P256.Signing.PrivateKey()
        let signed = Data(repeating: 0x41, count: 400)  // about a proof's header and claims, base64url
        let bareSignature = try bare.signature(for: signed)
        var proof = Measurement(samples: []), signature = Measurement(samples: []), verification = Measurement(samples: [])
        for _ in 0..<proofs {
            proof.samples.append(try await Measurement.time {
                _ = try await key.proof(method: "GET", url: me, accessToken: "bench-access-token", nonce: nil, at: Date())
            })
            signature.samples.append(try Measurement.time { _ = try bare.signature(for: signed) })
            verification.samples.append(Measurement.time { _ = bare.publicKey.isValidSignature(bareSignature, for: signed) })
        }
        report.rows.append(ReportRow(name: "DPoP proof (jwt-kit, ES256, jwk and ath) p50", riderKit: proof.p50,
                                     floor: signature.p50, unit: "ms"))
        // What no server can skip per proof: the whole-stack rows below hold one signature and one
        // check of it per request more than bearer's, on the same 2 cores.
        report.rows.append(ReportRow(name: "for scale: swift-crypto's bare ES256 verification p50 (right: its signature)",
                                     riderKit: verification.p50, floor: signature.p50, unit: "ms"))

        // The whole stack twice over one recorded answer: bearer, and bound to a key.
        let signedIn = try await server.signedInRiderKit()
        guard let bearer = try await signedIn.sessions.currentSession() else { throw BenchFailure("no session after login") }
        let recorded = try await AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))
            .send(HTTPRequest(method: .get, url: me,
                              headers: ["Authorization": "Bearer \(bearer.accessToken)", "Accept": "application/json"]))
        let instant = InstantTransport(response: recorded)
        var bound = bearer
        bound.proofKey = key.privateKeyRepresentation
        bound.tokenType = "DPoP"
        func kit(with session: Session) async throws -> RiderKit {
            let kit = RiderKit(api: try server.api, transport: instant, vault: InMemoryTokenVault(),
                               cache: InMemoryUserCache(), clock: SystemClock())
            try await kit.sessions.establish(session)
            return kit
        }
        let bearerKit = try await kit(with: bearer), boundKit = try await kit(with: bound)
        let instantBearer: @Sendable () async throws -> Void = { _ = try await bearerKit.currentUser(policy: .networkOnly) }
        let instantProof: @Sendable () async throws -> Void = { _ = try await boundKit.currentUser(policy: .networkOnly) }

        // Against rider-server (started with --dpop supported): a bearer sign-in and a bound one.
        var api = try server.api
        api.dpop = .required
        let boundOverNetwork = RiderKit(api: api, transport: AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none)),
                                        vault: InMemoryTokenVault(), cache: InMemoryUserCache(), clock: SystemClock())
        _ = try await boundOverNetwork.login(Credentials(email: ServerProcess.demoEmail, password: ServerProcess.demoPassword))
        guard try await boundOverNetwork.sessions.currentSession()?.isSenderConstrained == true else {
            throw BenchFailure("rider-server did not bind the session to the key")
        }
        let withBearer: @Sendable () async throws -> Void = { _ = try await signedIn.currentUser(policy: .networkOnly) }
        let withProof: @Sendable () async throws -> Void = { _ = try await boundOverNetwork.currentUser(policy: .networkOnly) }
        for _ in 0..<min(200, sequential) {
            try await withBearer(); try await withProof(); try await instantBearer(); try await instantProof()
        }

        if let only {
            let body = only == .bearer ? withBearer : withProof
            var sequentialRun = Load.Result(), concurrentRun = Load.Result()
            for _ in 0..<rounds {
                sequentialRun.merge(await Load.run(requests: sequential, concurrency: 1, body))
                concurrentRun.merge(await Load.run(requests: concurrent, concurrency: tasks, body))
            }
            let failures = sequentialRun.failures + concurrentRun.failures
            report.check("\(only.rawValue) alone: every request succeeded", failures == 0,
                         "\(failures) failed; \(Int(sequentialRun.requestsPerSecond)) req/s sequential, "
                             + "\(Int(concurrentRun.requestsPerSecond)) req/s with \(tasks) tasks")
            return report
        }

        var bearerSequential = Load.Result(), boundSequential = Load.Result()
        var bearerConcurrent = Load.Result(), boundConcurrent = Load.Result()
        var instantBearerRun = Load.Result(), instantProofRun = Load.Result()
        // Interleaved rounds, so drift on a shared machine hits both columns alike.
        for _ in 0..<rounds {
            bearerSequential.merge(await Load.run(requests: sequential, concurrency: 1, withBearer))
            boundSequential.merge(await Load.run(requests: sequential, concurrency: 1, withProof))
            bearerConcurrent.merge(await Load.run(requests: concurrent, concurrency: tasks, withBearer))
            boundConcurrent.merge(await Load.run(requests: concurrent, concurrency: tasks, withProof))
            instantBearerRun.merge(await Load.run(requests: sequential, concurrency: 1, instantBearer))
            instantProofRun.merge(await Load.run(requests: sequential, concurrency: 1, instantProof))
        }
        let perProofSeconds = (signature.p50 + verification.p50) / 1_000
        let cores = ProcessInfo.processInfo.activeProcessorCount
        report.rows += [
            ReportRow(name: "whole stack against rider-server, DPoP-bound session (right: bearer), sequential throughput",
                      riderKit: boundSequential.requestsPerSecond, floor: bearerSequential.requestsPerSecond,
                      unit: "req/s", better: .higher),
            ReportRow(name: "whole stack against rider-server, DPoP-bound session (right: bearer), \(tasks) concurrent "
                          + "tasks: throughput",
                      riderKit: boundConcurrent.requestsPerSecond, floor: bearerConcurrent.requestsPerSecond,
                      unit: "req/s", better: .higher),
            // Not measured but worked out from the rows above: what no implementation can skip
            // (one signature by the client, one verification by the server, per request), added
            // to bearer's figures. Sequentially each request waits for both; with 32 tasks the
            // cores are busy, so both add CPU time shared among the cores.
            ReportRow(name: "the most any DPoP client and server could reach here: bearer plus one bare ES256 signature "
                          + "and verification per request (right: bearer), sequential",
                      riderKit: 1 / (1 / bearerSequential.requestsPerSecond + perProofSeconds),
                      floor: bearerSequential.requestsPerSecond, unit: "req/s", better: .higher),
            ReportRow(name: "the same, \(tasks) tasks on \(cores) cores (right: bearer)",
                      riderKit: 1 / (1 / bearerConcurrent.requestsPerSecond + perProofSeconds / Double(cores)),
                      floor: bearerConcurrent.requestsPerSecond, unit: "req/s", better: .higher),
            ReportRow(name: "RiderKit's own work over an instant transport, DPoP-bound (right: bearer), p50",
                      riderKit: instantProofRun.latencies.p50, floor: instantBearerRun.latencies.p50, unit: "ms"),
        ]
        let failures = [bearerSequential, boundSequential, bearerConcurrent, boundConcurrent, instantBearerRun,
                        instantProofRun].reduce(0) { $0 + $1.failures }
        report.check("every request succeeded", failures == 0, "\(failures) failed")
        return report
    }
}

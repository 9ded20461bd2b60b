import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

/// The soak behind `make stress`, for races that only show over time: many tasks share one
/// session and read and
/// write for a bounded time against the reference server with a 2 s access token lifetime.
/// Skipped unless `RIDER_STRESS_SECONDS` is set; not part of `make test`.
@Suite("Soak: many tasks, short-lived tokens",
       .enabled(if: ProcessInfo.processInfo.environment["RIDER_STRESS_SECONDS"] != nil))
struct StressTests {
    static let seconds = Double(ProcessInfo.processInfo.environment["RIDER_STRESS_SECONDS"] ?? "") ?? 30
    static let tasks = 16
    static let accessTTL: Double = 2

    /// What the tasks did, counted across all of them.
    actor Tally {
        var operations = 0
        var conflicts = 0
        var unexpected: [String] = []

        func record(_ outcome: Result<Void, any Error>) {
            operations += 1
            switch outcome {
            case .success: break
            case .failure(RiderError.Code.conflict):
                conflicts += 1  // two tasks updating the profile at once: the expected answer
            case .failure(let error):
                unexpected.append(String(describing: error))
            }
        }
    }

    @Test("login, reads, updates and refreshes for RIDER_STRESS_SECONDS: no unexpected error, one refresh per expiry")
    func soak() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let tally = Tally()
        let (elapsed, stats, refreshes) = try await withReferenceServer(
            .init(seedUsers: 500, accessTokenTTL: .seconds(Int64(Self.accessTTL)))
        ) { server in
            let kit = try server.riderKit(cache: CacheConfiguration(
                storage: .sqlite(folder.url.appendingPathComponent("users.sqlite"))))
            _ = try await kit.login(.referenceDemo)

            let started = Date()
            let deadline = started.addingTimeInterval(Self.seconds)
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<Self.tasks {
                    group.addTask {
                        var step = task
                        while Date() < deadline {
                            step += 1
                            let outcome: Result<Void, any Error>
                            do {
                                switch step % 4 {
                                case 0:
                                    _ = try await kit.currentUser(policy: .networkOnly)
                                case 1:
                                    _ = try await kit.searchUsers(
                                        ["jo", "an", "demo", "ma"][step % 4], page: try PageRequest(page: 1 + step % 3),
                                        policy: .networkOnly)
                                case 2:
                                    _ = try await kit.profile.get()
                                default:
                                    _ = try await kit.profile.update(RiderPatch(description: .set("Task \(task), step \(step).")))
                                }
                                outcome = .success(())
                            } catch {
                                outcome = .failure(error)
                            }
                            await tally.record(outcome)
                        }
                    }
                }
            }
            return (Date().timeIntervalSince(started), await server.store.stats(), await kit.sessions.refreshCount)
        }

        let unexpected = await tally.unexpected
        print("soak: \(await tally.operations) operations by \(Self.tasks) tasks in \(Int(elapsed)) s, "
              + "\(await tally.conflicts) expected conflicts, \(unexpected.count) unexpected errors, "
              + "\(refreshes) refreshes, \(stats.requests) requests at the server")
        #expect(unexpected.isEmpty, "unexpected: \(Set(unexpected).sorted().prefix(5))")
        #expect(stats.refreshGrants == refreshes, "every refresh the engine sent succeeded, and no other was sent")
        #expect(stats.failedTokenRequests == 0, "no refresh token was spent twice")
        // Proactive refresh renews a token once it is within half its lifetime of expiry, so one
        // refresh per half lifetime at most, and at least one per lifetime while busy.
        #expect(Double(refreshes) <= elapsed / (Self.accessTTL / 2) + 2, "\(refreshes) refreshes in \(elapsed) s")
        #expect(Double(refreshes) >= elapsed / Self.accessTTL - 2, "\(refreshes) refreshes in \(elapsed) s")
    }
}

import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

@Suite("FileRefreshLock on a real file")
struct FileRefreshLockTests {
    @Test("two holders of the same lock file never run at the same time")
    func mutualExclusion() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("state/refresh.lock")
        let inside = Counter()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                // A lock value per task: each opens the file itself, as separate processes do.
                group.addTask {
                    try await FileRefreshLock(file: file).withLock {
                        let now = await inside.enter()
                        #expect(now == 1, "only one holder at a time")
                        try await Task.sleep(for: .milliseconds(5))
                        await inside.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("a lock held too long gives a storage error naming the file")
    func timeout() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("refresh.lock")
        let holding = FileRefreshLock(file: file)
        let waiting = FileRefreshLock(file: file, timeout: 0.05)

        try await holding.withLock {
            await #expect {
                try await waiting.withLock { () }
            } throws: { error in
                guard let riderError = error as? RiderError, riderError.code == .storage, case let message = riderError.detail ?? "" else { return false }
                return message.contains(file.path)
            }
        }
        // Released: the next holder gets it at once.
        try await waiting.withLock { () }
    }
}

private actor Counter {
    private var value = 0
    func enter() -> Int {
        value += 1
        return value
    }
    func leave() { value -= 1 }
}

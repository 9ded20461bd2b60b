import Foundation

/// A fresh folder under the system's temporary directory for one scenario's files.
struct ScratchFolder {
    let url: URL

    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("rider-race-check-\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Runs one scenario, printing how long it took (the sanitized build is slow; the figure is what
/// `make race-check` costs and what docs/reliability.md quotes).
func scenario(_ name: String, _ body: () async throws -> Void) async {
    let started = ContinuousClock.now
    do {
        try await body()
    } catch {
        await check(false, "\(name): \(error)")
    }
    let elapsed = (ContinuousClock.now - started).components
    let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    print("      \(name) took \(String(format: "%.1f", seconds)) s")
}

/// Collects what went wrong in the concurrent tasks of a scenario, to be checked once they end.
struct Problems: Sendable {
    private(set) var items: [String] = []

    mutating func add(_ problem: String) { items.append(problem) }
    mutating func add(_ other: Problems) { items += other.items }

    var isEmpty: Bool { items.isEmpty }
    /// The first few, for the message.
    var summary: String { items.isEmpty ? "" : " (\(items.count): \(items.prefix(3).joined(separator: "; ")))" }
}

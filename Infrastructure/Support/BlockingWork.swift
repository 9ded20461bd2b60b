import Foundation

/// Runs blocking work — a D-Bus call, `flock`, scrypt, `fsync` — on a thread of its own, so it
/// never occupies one of the few threads of Swift's cooperative pool that every task shares.
enum BlockingWork {
    static func run<Value: Sendable>(
        _ body: @escaping @Sendable () throws(VaultError) -> Value
    ) async throws(VaultError) -> Value {
        let result: Result<Value, VaultError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(VaultError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "RiderKit vault"
            thread.start()
        }
        return try result.get()
    }
}

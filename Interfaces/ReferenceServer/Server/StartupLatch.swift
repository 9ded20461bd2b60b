import Synchronization

/// Hands the bound port from Hummingbird's `onServerRunning` callback to the task that
/// started the server, or the reason it never got that far. Only the first outcome counts.
final class StartupLatch: Sendable {
    private enum State {
        case pending(CheckedContinuation<Int, any Error>?)
        case finished(Result<Int, any Error>)
    }

    private let state = Mutex<State>(.pending(nil))

    func succeed(port: Int?) {
        guard let port else {
            finish(.failure(ReferenceServerError.couldNotStart("the listening socket has no port")))
            return
        }
        finish(.success(port))
    }

    func fail(_ error: any Error) {
        finish(.failure(error))
    }

    /// Waits for the first outcome.
    func port() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int, any Error>? = state.withLock { state in
                switch state {
                case .pending:
                    state = .pending(continuation)
                    return nil
                case .finished(let result):
                    return result
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    private func finish(_ result: Result<Int, any Error>) {
        let waiting: CheckedContinuation<Int, any Error>? = state.withLock { state in
            guard case .pending(let continuation) = state else { return nil }
            state = .finished(result)
            return continuation
        }
        waiting?.resume(with: result)
    }
}

import Foundation
import RiderDomain
import Testing

/// A scriptable ``HTTPTransport`` for tests: answers each request from the first script whose
/// route matches and which has replies left, records every request, and fails loudly — an
/// `Issue` in the current test plus a thrown ``UnexpectedRequestError`` that prints
/// the request with its secrets redacted — for anything not scripted.
///
/// Scripts are tried in the order they were added, so "first a 401, then 200" is two scripts:
///
/// ```swift
/// let transport = StubTransport()
/// transport.stub(.get, "/riders/me", times: 1, with: .problem(status: 401))
/// transport.stub(.get, "/riders/me", with: .successful(Fixtures.rider()))
/// ```
///
/// ``successful(api:)`` starts from a transport that answers every route of the API contract
/// with sample data, and ``failing(with:)`` from one that fails every request; scripts added to
/// them win over those answers.
///
/// Setting up and reading it is synchronous (a lock, not an actor), so tests need no `await`
/// outside the code under test.
public final class StubTransport: HTTPTransport {
    /// A closure that answers one request; it may `await` (for example to inspect a vault).
    public typealias Handler = @Sendable (HTTPRequest) async throws -> StubReply
    /// Answers a request no script matched; `nil` leaves it unexpected.
    package typealias Fallback = @Sendable (HTTPRequest) async throws -> StubReply?

    private struct Script: Sendable {
        var route: StubRoute
        /// `nil`: answers any number of requests.
        var remaining: Int?
        var handler: Handler
    }

    private struct State: Sendable {
        var scripts: [Script] = []
        var requests: [HTTPRequest] = []
        var unexpected: [HTTPRequest] = []
        var delay: Duration = .zero
        var fallback: Fallback?
    }

    private let state = LockedState(State())
    private let sourceLocation: SourceLocation

    /// - Parameters:
    ///   - delay: how long every request waits before it is answered, to open concurrency windows.
    ///   - sourceLocation: where unexpected requests are reported; defaults to the creating line.
    public init(delay: Duration = .zero, sourceLocation: SourceLocation = #_sourceLocation) {
        self.sourceLocation = sourceLocation
        state.withLock { $0.delay = delay }
    }

    // MARK: Scripting

    /// Answers requests on `route` with `handler`.
    /// - Parameters:
    ///   - route: which requests the script answers.
    ///   - times: how many requests it answers before it is used up; `nil` for any number.
    ///   - handler: computes the reply from the request.
    public func stub(_ route: StubRoute, times: Int? = nil, handler: @escaping Handler) {
        precondition(times.map { $0 > 0 } ?? true, "times must be positive")
        state.withLock { $0.scripts.append(Script(route: route, remaining: times, handler: handler)) }
    }

    /// Answers `method path` with `handler`.
    /// - Parameters:
    ///   - method: the method to match.
    ///   - path: the URL path to match (without query).
    ///   - times: how many requests it answers; `nil` for any number.
    ///   - handler: computes the reply from the request.
    public func stub(_ method: HTTPMethod, _ path: String, times: Int? = nil, handler: @escaping Handler) {
        stub(StubRoute(method, path), times: times, handler: handler)
    }

    /// Answers `method path` with a fixed reply.
    /// - Parameters:
    ///   - method: the method to match.
    ///   - path: the URL path to match (without query).
    ///   - times: how many requests it answers; `nil` for any number.
    ///   - reply: the reply.
    public func stub(_ method: HTTPMethod, _ path: String, times: Int? = nil, with reply: StubReply) {
        stub(StubRoute(method, path), times: times) { _ in reply }
    }

    /// Answers requests on `route` with a fixed reply.
    /// - Parameters:
    ///   - route: which requests the script answers.
    ///   - times: how many requests it answers; `nil` for any number.
    ///   - reply: the reply.
    public func stub(_ route: StubRoute, times: Int? = nil, with reply: StubReply) {
        stub(route, times: times) { _ in reply }
    }

    /// Answers successive requests on `method path` with `replies`, one each, in order; a
    /// request after the last one is unexpected.
    /// - Parameters:
    ///   - method: the method to match.
    ///   - path: the URL path to match (without query).
    ///   - replies: the replies, in the order the requests are to get them.
    public func stub(_ method: HTTPMethod, _ path: String, inOrder replies: [StubReply]) {
        for reply in replies { stub(method, path, times: 1, with: reply) }
    }

    /// Makes every request wait `delay` before it is answered (cancellation ends the wait).
    /// - Parameter delay: the wait; `.zero` answers at once.
    public func setDelay(_ delay: Duration) {
        state.withLock { $0.delay = delay }
    }

    /// Answers every request that no script matches with `fallback` (a preset such as
    /// ``successful(api:)`` uses this); a `nil` answer leaves the request unexpected.
    /// - Parameter fallback: the answer of last resort, or `nil` to remove it.
    package func answerUnscripted(with fallback: Fallback?) {
        state.withLock { $0.fallback = fallback }
    }

    /// Forgets scripts, recorded requests and the delay; keeps the answer of last resort.
    public func reset() {
        state.withLock { state in
            state = State(fallback: state.fallback)
        }
    }

    // MARK: Inspection

    /// Every request received, in arrival order (unexpected ones included).
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// The requests no script answered.
    public var unexpectedRequests: [HTTPRequest] { state.withLock { $0.unexpected } }

    /// The requests received on `method path`.
    /// - Parameters:
    ///   - method: the method.
    ///   - path: the URL path (without query).
    /// - Returns: the matching requests, in arrival order.
    public func requests(_ method: HTTPMethod, _ path: String) -> [HTTPRequest] {
        requests(on: StubRoute(method, path))
    }

    /// The requests received on `route`.
    /// - Parameter route: the route.
    /// - Returns: the matching requests, in arrival order.
    public func requests(on route: StubRoute) -> [HTTPRequest] {
        requests.filter(route.matches)
    }

    /// How many requests arrived on `method path`.
    /// - Parameters:
    ///   - method: the method.
    ///   - path: the URL path (without query).
    /// - Returns: the count.
    public func count(_ method: HTTPMethod, _ path: String) -> Int {
        requests(method, path).count
    }

    /// Routes whose limited scripts were not used up: replies a test expected to be asked for.
    public var unusedScripts: [String] {
        state.withLock { state in
            state.scripts.filter { ($0.remaining ?? 0) > 0 }.map(\.route.description)
        }
    }

    // MARK: HTTPTransport

    /// Records `request`, waits the configured delay, and answers from the first matching script,
    /// else from the answer of last resort (`answerUnscripted(with:)`).
    /// - Throws: the scripted failure, `CancellationError` when cancelled during the delay, or
    ///   ``UnexpectedRequestError`` (also recorded as an `Issue`) when nothing
    ///   answers it.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (scripted, fallback, delay) = state.withLock { state -> (Handler?, Fallback?, Duration) in
            state.requests.append(request)
            guard let index = state.scripts.firstIndex(where: { $0.remaining != 0 && $0.route.matches(request) }) else {
                return (nil, state.fallback, state.delay)
            }
            if let remaining = state.scripts[index].remaining { state.scripts[index].remaining = remaining - 1 }
            return (state.scripts[index].handler, nil, state.delay)
        }
        if scripted == nil && fallback == nil { throw unexpected(request) }
        if delay > .zero { try await Task.sleep(for: delay) }
        let reply: StubReply? = if let scripted { try await scripted(request) } else { try await fallback?(request) }
        switch reply {
        case .response(let response)?: return response
        case .failure(let error)?: throw error
        case nil: throw unexpected(request)
        }
    }

    /// Notes `request` as unexpected, reports it, and returns the error to throw.
    private func unexpected(_ request: HTTPRequest) -> UnexpectedRequestError {
        let error = state.withLock { state in
            state.unexpected.append(request)
            let left = state.scripts.filter { $0.remaining != 0 }.map(\.route.description)
            return UnexpectedRequestError(request: request, scriptedRoutes: left)
        }
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
        return error
    }
}

import Foundation

/// Which recording answers the next request of each route (method and path), and what time it
/// is in the replay.
///
/// Routes are independent: a route's recordings are served in the order they were recorded,
/// whatever other routes do in between, so requests made concurrently replay however they
/// interleave.
struct ReplaySchedule: Sendable {
    /// What a request gets.
    enum Answer: Equatable, Sendable {
        case recorded(RecordedExchange)
        /// Nothing was recorded for the route.
        case unknownRoute
        /// Every one of the route's `count` recordings was already served.
        case exhausted(count: Int)
    }

    private let recordings: [String: [RecordedExchange]]
    /// How many recordings of each route were served.
    private(set) var served: [String: Int]
    /// When the last response served here arrived, by the recording's clock.
    private var reached: Date?

    /// - Parameter served: how far earlier runs got.
    init(recordings: [String: [RecordedExchange]], served: [String: Int] = [:]) {
        self.recordings = recordings
        self.served = served
    }

    /// Whether every recording was served.
    private var isFinished: Bool {
        recordings.allSatisfy { route, exchanges in (served[route] ?? 0) >= exchanges.count }
    }

    /// The key of a route: `GET /auth/me`.
    static func route(method: String, path: String) -> String { "\(method) \(path)" }

    /// The next recording of `route`, which counts as served from now on. When every recording
    /// had been served, the replay starts over first, so a session replayed to its end can be
    /// replayed again.
    mutating func answer(_ route: String) -> Answer {
        guard let exchanges = recordings[route], !exchanges.isEmpty else { return .unknownRoute }
        if isFinished { served = [:] }
        let index = served[route] ?? 0
        guard index < exchanges.count else { return .exhausted(count: exchanges.count) }
        served[route] = index + 1
        reached = exchanges[index].receivedAt
        return .recorded(exchanges[index])
    }

    /// The replay's time: when the last response served here was received, as recorded; before
    /// any, when the next recorded request was sent — so a run decides, for example whether its
    /// session needs refreshing first, as the recorded run did at that moment — or, once all
    /// were served, when the last answer arrived.
    var now: Date {
        if let reached { return reached }
        let next = recordings.compactMap { route, exchanges in
            (served[route] ?? 0) < exchanges.count ? exchanges[served[route] ?? 0].sentAt : nil
        }.min()
        return next ?? recordings.values.joined().map(\.receivedAt).max() ?? Date()
    }
}

import ArgumentParser
import RiderKit

/// `--level beginner|intermediate|expert`. A CLI-side enum so RiderDomain stays free of ArgumentParser.
enum SportLevelArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case beginner
    case intermediate
    case expert

    var level: SportLevel {
        switch self {
        case .beginner: return .beginner
        case .intermediate: return .intermediate
        case .expert: return .expert
        }
    }
}

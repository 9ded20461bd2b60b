import ArgumentParser
import RiderKit

/// `--type mentor|learner`. A CLI-side enum so RiderDomain stays free of ArgumentParser.
enum RiderTypeArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case mentor
    case learner

    var riderType: RiderType {
        switch self {
        case .mentor: return .mentor
        case .learner: return .learner
        }
    }
}

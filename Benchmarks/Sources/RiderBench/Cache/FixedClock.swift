import Foundation
import RiderKit

/// A clock that stands still, so every cached entry stays fresh during the run.
struct FixedClock: Clock {
    let now: Date
}

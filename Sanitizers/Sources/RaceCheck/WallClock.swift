import Foundation
import RiderDomain

struct WallClock: Clock {
    var now: Date { Date() }
}

import Foundation
import RiderDomain

/// The device's wall clock.
public struct SystemClock: Clock {
    public init() {}
    public var now: Date { Date() }
}

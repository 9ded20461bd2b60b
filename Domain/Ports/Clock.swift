import Foundation

/// Tells the time, so expiry and cache ages can be tested without sleeping.
///
/// Named after its role; it shadows the standard library's `Clock` only inside
/// modules that import RiderDomain, which is intended.
public protocol Clock: Sendable {
    /// The current instant.
    var now: Date { get }
}

import Foundation

/// One RFC 8628 device authorization: a device waiting, by polling the token endpoint, for a
/// person to approve or deny its user code on the verification page.
struct DeviceAuthorization: Sendable {
    /// Where the request stands; redeeming an approved one removes it from the store.
    enum Phase: Sendable, Equatable {
        case pending
        case approved(userIndex: Int)
        case denied
    }

    /// Canonical form (``UserCode/canonical(_:)``).
    let userCode: String
    /// The client that asked, `nil` for the public client; only it may redeem the code.
    let clientID: String?
    let scope: String?
    /// The resource (RFC 8707) the device asked for, canonical; `nil`: none.
    let resource: String?
    let expiresAt: Date
    /// Seconds the device must leave between polls; grows by 5 on every `slow_down`.
    var interval: Int
    var lastPolledAt: Date?
    var phase: Phase = .pending
    /// Issue order, for dropping the oldest when the store holds too many.
    let sequence: UInt64
}

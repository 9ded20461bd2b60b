import Foundation
import RiderDomain

// MARK: - Account

extension API {
    /// `DELETE /riders/me`: deletes the signed-in account and ends all its sessions (`204`).
    package static var deleteMyAccount: Endpoint<Void> {
        Endpoint(method: .delete, path: "/riders/me", authorization: .bearer, decode: { _ in })
    }
}

import Foundation
import RiderDomain

/// Edits the signed-in user's rider profile without ever overwriting a newer version.
///
/// The update is conditional on the entity tag of the profile it was based on; if someone
/// changed the profile meanwhile, the server refuses and the caller gets the current version.
package struct UpdateRider: Sendable {
    let api: APIClient

    package init(api: APIClient) { self.api = api }

    /// - Parameters:
    ///   - patch: the fields to change.
    ///   - base: the entity tag of the profile the edit was made on; `nil` fetches the current
    ///     profile first and edits that.
    /// - Returns: the updated profile with its new entity tag.
    /// - Throws: `RiderError.invalidInput(_:)` for an empty patch or rejected fields,
    ///   `RiderError.conflict(current:)` when the profile changed since `base`,
    ///   `RiderError.notSignedIn`, network errors.
    package func callAsFunction(_ patch: RiderPatch, basedOn base: EntityTag? = nil) async throws -> Rider {
        guard !patch.isEmpty else {
            throw RiderError.invalidInput([FieldProblem(field: "patch", message: "names no field to change")])
        }
        var tag = base
        // Without the current tag the edit could silently overwrite a newer profile.
        if tag == nil { tag = try await api.send(API.myRider.requiring("ETag")).entityTag }
        do {
            return try await api.send(API.updateMyRider(patch, ifMatch: tag))
        } catch RiderError.Code.conflict {
            let current = try? await api.send(API.myRider)
            throw RiderError.conflict(current: current)
        }
    }
}

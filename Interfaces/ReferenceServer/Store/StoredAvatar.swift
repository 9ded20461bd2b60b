import Foundation

/// An uploaded avatar as the store keeps it.
struct StoredAvatar: Sendable {
    let data: Data
    /// `image/jpeg` or `image/png`.
    let mediaType: String
    /// Strong entity tag; a new upload gets a new one, since the profile version it carries
    /// only ever grows.
    let entityTag: String
}

import Foundation

/// A rider's base location as the store keeps it.
struct StoredBaseLocation: Sendable, Equatable {
    let latitude: Double
    let longitude: Double
    let placeName: String?
    let updatedAt: Date
}

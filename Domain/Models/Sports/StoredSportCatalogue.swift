import Foundation

/// The sport catalogue as kept between runs, with how long the server allows reusing it.
public struct StoredSportCatalogue: Hashable, Sendable {
    public var sports: [Sport]
    /// When it was downloaded.
    public var storedAt: Date
    /// Until when it may be reused without asking the server (`Cache-Control: max-age`).
    public var expiresAt: Date

    public init(sports: [Sport], storedAt: Date, expiresAt: Date) {
        self.sports = sports
        self.storedAt = storedAt
        self.expiresAt = expiresAt
    }
}

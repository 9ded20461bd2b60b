import Foundation
import RiderDomain

/// The sport catalogue kept in memory for as long as the server allows (`max-age`, one day on
/// the reference server), so listing sports again within a process costs no request.
///
/// In memory only: the catalogue is small, public and cheap to fetch once per run.
public actor SportCatalogueMemo {
    private var entry: (sports: [Sport], storedAt: Date, expiresAt: Date)?

    public init() {}

    /// The catalogue when it is still fresh at `date`.
    func fresh(at date: Date) -> Cached<[Sport]>? {
        guard let entry, date < entry.expiresAt else { return nil }
        return Cached(value: entry.sports, storedAt: entry.storedAt, source: .cache)
    }

    /// Keeps `sports` until `date + maxAge`; a `nil` or zero `maxAge` keeps nothing.
    func store(_ sports: [Sport], at date: Date, maxAge: TimeInterval?) {
        guard let maxAge, maxAge > 0 else {
            entry = nil
            return
        }
        entry = (sports, date, date.addingTimeInterval(maxAge))
    }
}

import ArgumentParser
import RiderKit

/// Checks a sport id given on the command line before anything is sent.
enum SportIDArgument {
    /// - Parameter listing: the command that shows valid ids (`rider sports list`, `rider sports mine`).
    /// - Throws: `ValidationError` naming the allowed form and where to find ids.
    static func validate(_ id: String, shownBy listing: String) throws {
        do {
            _ = try SportID(id).validated()
        } catch {
            throw ValidationError("The sport id must be 1 to \(SportID.maximumLength) lowercase letters, digits "
                + "or '-', as `\(listing)` shows it.")
        }
    }
}

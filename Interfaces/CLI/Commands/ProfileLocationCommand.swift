import ArgumentParser
import Foundation
import RiderKit

/// `rider profile location [--set LAT,LON --name …]`: shows or sets your base location.
struct ProfileLocationCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "location",
        abstract: "Show where you usually start your rides, or set it with --set.",
        discussion: """
            Latitude from -90 to 90 and longitude from -180 to 180, in decimal degrees; a value \
            out of range exits with 9 and names the field. Setting replaces the place name too: \
            leave out --name to clear it.

            Examples:
              rider profile location
              rider profile location --set -33.9249,18.4241 --name "Cape Town"
            """
    )

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Latitude and longitude in decimal degrees, separated by a comma.", valueName: "lat,lon"))
    var set: String?

    @Option(help: ArgumentHelp("The place's name (up to 100 characters); only with --set.", valueName: "name"))
    var name: String?

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        if name != nil && set == nil {
            throw ValidationError("--name needs --set LAT,LON.")
        }
        if let set, Self.coordinates(set) == nil {
            throw ValidationError("--set takes latitude and longitude as two numbers separated by a comma, "
                + "such as -33.9249,18.4241.")
        }
    }

    func run() async throws {
        let context = try CommandContext(global)
        guard let set, let (latitude, longitude) = Self.coordinates(set) else {
            let output = BaseLocationOutput(try await context.rider.profile.baseLocation())
            try context.print(json: output, lines: output.isSet ? output.lines
                : ["No base location is set; set one with `rider profile location --set LAT,LON --name NAME`."])
            return
        }
        // Out-of-range values are RiderError.invalidInput naming the field (exit 9), before any request.
        let location = try BaseLocation(latitude: latitude, longitude: longitude, placeName: name)
        let output = BaseLocationOutput(try await context.rider.profile.setBaseLocation(location))
        try context.print(json: output, lines: ["Base location saved."] + output.lines)
    }

    /// `"-33.9,18.4"` → (-33.9, 18.4); `nil` unless it is exactly two numbers.
    static func coordinates(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        return (latitude, longitude)
    }
}

import Foundation
import RiderDomain
import Testing

@Suite("BaseLocation")
struct BaseLocationTests {
    @Test("accepts the poles, the antimeridian and a trimmed place name; an empty name is no name",
          arguments: [(-90.0, -180.0), (90.0, 180.0), (0.0, 0.0), (-33.9249, 18.4241)])
    func accepts(latitude: Double, longitude: Double) throws {
        let location = try BaseLocation(latitude: latitude, longitude: longitude, placeName: "  Cape Town ")
        #expect(location.latitude == latitude && location.longitude == longitude)
        #expect(location.placeName == "Cape Town")
        #expect(try BaseLocation(latitude: latitude, longitude: longitude, placeName: "  ").placeName == nil)
    }

    @Test("rejects every bad field at once, naming each")
    func rejectsEveryBadField() {
        #expect(throws: RiderError.invalidInput([
            FieldProblem(field: "latitude", message: "must be a number from -90 to 90"),
            FieldProblem(field: "longitude", message: "must be a number from -180 to 180"),
            FieldProblem(field: "place_name", message: "must be at most 100 characters long"),
        ])) {
            try BaseLocation(latitude: 90.5, longitude: -181, placeName: String(repeating: "x", count: 101))
        }
    }

    @Test("rejects numbers that are not numbers", arguments: [Double.nan, .infinity, -.infinity])
    func rejectsNonFinite(value: Double) {
        let latitude = #expect(throws: RiderError.self) { try BaseLocation(latitude: value, longitude: 0) }
        #expect(latitude?.code == .invalidInput, "\(String(describing: latitude))")
        let longitude = #expect(throws: RiderError.self) { try BaseLocation(latitude: 0, longitude: value) }
        #expect(longitude?.code == .invalidInput, "\(String(describing: longitude))")
    }
}

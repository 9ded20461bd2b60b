import Foundation
import RiderDomain

// MARK: - Base location

extension API {
    /// `GET /riders/me/base-location`; `404` when the rider has not set one.
    package static var myBaseLocation: Endpoint<BaseLocation> {
        Endpoint(method: .get, path: "/riders/me/base-location", authorization: .bearer, decode: decodeBaseLocation)
    }

    /// `PUT /riders/me/base-location`: replaces the whole location.
    package static func setMyBaseLocation(_ location: BaseLocation) throws -> Endpoint<BaseLocation> {
        Endpoint(method: .put, path: "/riders/me/base-location", body: try .json(BaseLocationDTO(location)),
                 authorization: .bearer, decode: decodeBaseLocation)
    }

    @Sendable private static func decodeBaseLocation(_ response: HTTPResponse) throws -> BaseLocation {
        try ContractCoding.decode(BaseLocationDTO.self, from: response.body, what: "the base location").toDomain()
    }
}

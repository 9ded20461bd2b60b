import Foundation
import RiderDomain

// MARK: - Sports

extension API {
    /// `GET /sports`: the public catalogue, with how long it may be reused (`Cache-Control: max-age`).
    package static var sports: Endpoint<CacheableResponse<[Sport]>> {
        Endpoint(method: .get, path: "/sports", authorization: .none, decode: { response in
            let list = try ContractCoding.decode(SportListDTO.self, from: response.body, what: "the sport catalogue")
            return CacheableResponse(value: list.sports.map { $0.toDomain() },
                                     maxAge: CacheableResponse<[Sport]>.maxAge(response.headers["Cache-Control"]))
        })
    }

    /// `GET /riders/me/sports`: the signed-in rider's sports and levels.
    package static var mySports: Endpoint<[RiderSport]> {
        Endpoint(method: .get, path: "/riders/me/sports", authorization: .bearer, decode: { response in
            try ContractCoding.decode(RiderSportListDTO.self, from: response.body, what: "your sports")
                .sports.map { try $0.toDomain() }
        })
    }

    /// `POST /riders/me/sports/{id}`: adds the sport or changes its level (`201` or `200`).
    package static func setMySport(_ id: SportID, level: SportLevel) throws -> Endpoint<RiderSport> {
        Endpoint(method: .post, path: mySportPath(id), body: try .json(SportLevelDTO(level: level.rawValue)),
                 authorization: .bearer, decode: { response in
            try ContractCoding.decode(RiderSportDTO.self, from: response.body, what: "the sport").toDomain()
        })
    }

    /// `DELETE /riders/me/sports/{id}`.
    package static func removeMySport(_ id: SportID) -> Endpoint<Void> {
        Endpoint(method: .delete, path: mySportPath(id), authorization: .bearer, decode: { _ in })
    }

    private static func mySportPath(_ id: SportID) -> String {
        "/riders/me/sports/" + (id.rawValue.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
            ?? id.rawValue)
    }
}

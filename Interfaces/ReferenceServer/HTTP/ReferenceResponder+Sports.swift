import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `GET /sports`: the catalogue. Public (no token needed) and reusable for a day.
    func sports() throws -> Response {
        let body = SportListBody(sports: SportCatalogue.all.map { SportBody(id: $0.id, name: $0.name) })
        return try Responses.json(body, headers: [.cacheControl: "public, max-age=\(SportCatalogue.maxAge)"])
    }

    /// `GET /riders/me/sports`: the signed-in rider's sports and levels.
    func mySports(_ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        let list = await store.sports(userIndex: user.index)
        return try Responses.json(RiderSportListBody(sports: list.map(RiderSportBody.init)), headers: Self.noStore)
    }

    /// `POST /riders/me/sports/{id}` with `{"level": …}`: `201` when added, `200` when the level changed.
    ///
    /// Checks run in this order: token (`401`), body (`400`, `413`, `415`), fields (`422`), the
    /// sport in the catalogue (`404`), then the rider's number of sports (`422`).
    func setMySport(id: String, _ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        let body = try await jsonObject(of: request, mediaTypes: [Responses.json])
        var errors: [FieldError] = []
        for key in body.keys.sorted() where key != "level" {
            errors.append(FieldError(field: key, message: "is not a field of a rider's sport"))
        }
        var level: SportLevel?
        if let raw = FieldRules.string(body, "level", errors: &errors) {
            level = SportLevel(rawValue: raw)
            if level == nil {
                let names = SportLevel.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                errors.append(FieldError(field: "level", message: "must be one of \(names)"))
            }
        }
        guard errors.isEmpty, let level else { throw APIProblem.validation(errors) }
        guard SportCatalogue.name(of: id) != nil else {
            throw APIProblem.notFound("The catalogue has no sport with the id \(id); see GET /sports.")
        }
        switch await store.setSport(userIndex: user.index, id: id, level: level) {
        case .added(let entry):
            return try Responses.json(RiderSportBody(entry), status: .created, headers: Self.noStore)
        case .updated(let entry):
            return try Responses.json(RiderSportBody(entry), headers: Self.noStore)
        case .full:
            throw APIProblem.validation([FieldError(
                field: "sports", message: "must hold at most \(ReferenceStore.maximumRiderSports) entries; remove one first")])
        }
    }

    /// `DELETE /riders/me/sports/{id}`: `204`, or `404` when the rider does not have the sport.
    func removeMySport(id: String, _ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        guard await store.removeSport(userIndex: user.index, id: id) else {
            throw APIProblem.notFound("Your sports do not include \(id).")
        }
        return Response(status: .noContent, headers: Self.noStore)
    }
}

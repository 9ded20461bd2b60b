import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `GET /riders/me/base-location`: `404` until the rider sets one.
    func baseLocation(_ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        guard let location = await store.baseLocation(userIndex: user.index) else {
            throw APIProblem.notFound("You have not set a base location yet.")
        }
        return try Responses.json(BaseLocationBody(location), headers: Self.noStore)
    }

    /// `PUT /riders/me/base-location`: replaces the location (a missing `place_name` clears it).
    func putBaseLocation(_ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        let body = try await jsonObject(of: request, mediaTypes: [Responses.json])
        let input = try BaseLocationInput.validate(body)
        let stored = await store.setBaseLocation(userIndex: user.index, input)
        return try Responses.json(BaseLocationBody(stored), headers: Self.noStore)
    }
}

import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `GET /riders/me/preferences`: the whole document, defaults until saved.
    func preferences(_ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        return try Responses.json(PreferencesBody(await store.preferences(userIndex: user.index)), headers: Self.noStore)
    }

    /// `PUT /riders/me/preferences`: replaces the whole document.
    func putPreferences(_ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        let body = try await jsonObject(of: request, mediaTypes: [Responses.json])
        let value = try PreferencesInput.validate(body)
        await store.setPreferences(userIndex: user.index, value)
        return try Responses.json(PreferencesBody(value), headers: Self.noStore)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to the reference server without RiderKit, as another (newer) client would, so a test
/// can set up or inspect server state that `rider` cannot reach.
struct DirectAPI: Sendable {
    let baseURL: URL

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// An access token for `email`, from the password grant.
    func accessToken(email: String = Demo.email, password: String = Demo.password) async throws -> String {
        let form = "grant_type=password&username=\(escape(email))&password=\(escape(password))"
        let (data, status) = try await send("POST", "/auth/token", contentType: "application/x-www-form-urlencoded",
                                            body: Data(form.utf8))
        guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let token = object["access_token"] as? String else { throw Failure(description: "login failed: \(status)") }
        return token
    }

    /// Sends one request and returns the body and status.
    func send(_ method: String, _ path: String, token: String? = nil, contentType: String? = nil,
              body: Data? = nil) async throws -> (Data, Int) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    /// `GET url` (absolute, such as an `avatar_url`) with the body, status and `Content-Type`.
    func download(_ url: URL, token: String) async throws -> (data: Data, status: Int, contentType: String?) {
        var request = URLRequest(url: url)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (data, http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Content-Type"))
    }

    /// `GET path` as a JSON object.
    func object(_ path: String, token: String) async throws -> [String: Any] {
        let (data, status) = try await send("GET", path, token: token)
        guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "GET \(path) answered \(status)")
        }
        return object
    }

    private func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}

import Foundation

/// What came back from the server.
struct TestResponse: Sendable {
    let status: Int
    let headerFields: [String: String]
    let body: Data

    init(status: Int, headerFields: [String: String], body: Data) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }

    init(status: Int, headers: [AnyHashable: Any], body: Data) {
        self.status = status
        var fields: [String: String] = [:]
        for (name, value) in headers {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        self.headerFields = fields
        self.body = body
    }

    /// A header by case-insensitive name.
    func header(_ name: String) -> String? {
        headerFields[name.lowercased()]
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: body)
    }

    /// The body as a JSON object, to check exact keys and explicit nulls.
    func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw TestFailure("body is not a JSON object: \(text)")
        }
        return object
    }
}

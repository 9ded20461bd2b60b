import Foundation
import RiderApplication
import RiderDomain

extension HTTPRequest {
    /// The body as UTF-8 text (`""` when there is none).
    public var bodyText: String { body.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// The form body decoded with ``FormEncoding/decode(_:)``, in order.
    public var formPairs: [(String, String)] { FormEncoding.decode(bodyText) }

    /// The form body as a dictionary (the last value wins for a repeated name).
    public var formFields: [String: String] {
        Dictionary(formPairs, uniquingKeysWith: { _, last in last })
    }

    /// The query decoded with ``FormEncoding/decode(_:)``, so `+` and `%20` both read as spaces.
    public var queryFields: [String: String] {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        return Dictionary(FormEncoding.decode(query), uniquingKeysWith: { _, last in last })
    }

    /// The token of an `Authorization: Bearer …` header, or `nil`.
    public var bearerToken: String? {
        guard let value = headers["Authorization"], value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst("Bearer ".count))
    }

    /// The JSON body as Foundation objects, or `nil` when it is not JSON.
    ///
    /// `NSNull` stands for `null`, so "key absent" and "key set to null" can be told apart.
    public var jsonObject: [String: Any]? {
        guard let body else { return nil }
        return (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) as? [String: Any]
    }
}

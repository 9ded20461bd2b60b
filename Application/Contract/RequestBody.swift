import Foundation
import RiderDomain

/// The body of an API request, with the media type it is sent as.
package struct RequestBody: Hashable, Sendable {
    package var contentType: String
    package var data: Data

    package init(contentType: String, data: Data) {
        self.contentType = contentType
        self.data = data
    }

    /// A form body (`application/x-www-form-urlencoded`), as the OAuth 2.0 token endpoint expects.
    package static func form(_ pairs: [(String, String)]) -> RequestBody {
        RequestBody(contentType: "application/x-www-form-urlencoded", data: Data(FormEncoding.encode(pairs).utf8))
    }

    /// A JSON body encoded with the contract's conventions.
    package static func json(_ value: some Encodable, contentType: String = "application/json") throws -> RequestBody {
        RequestBody(contentType: contentType, data: try ContractCoding.encode(value))
    }
}

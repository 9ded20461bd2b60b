import Foundation
import RiderKit

/// `{"error": {"code": "...", "message": "...", ...}}`: what `--json` prints on stderr.
struct ErrorOutput: Encodable, Sendable {
    let code: String
    let message: String
    /// For `invalid_input` and `invalid_avatar`: which fields were rejected and why.
    var fields: [FieldProblemOutput]?
    /// For `conflict`: the profile as it is now on the server.
    var current: RiderOutput?

    private enum OuterKeys: String, CodingKey { case error }
    private enum CodingKeys: String, CodingKey { case code, message, fields, current }

    func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: OuterKeys.self)
        var container = outer.nestedContainer(keyedBy: CodingKeys.self, forKey: .error)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(fields, forKey: .fields)
        try container.encodeIfPresent(current, forKey: .current)
    }
}

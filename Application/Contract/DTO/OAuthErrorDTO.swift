import Foundation

/// A token endpoint error (RFC 6749 §5.2).
struct OAuthErrorDTO: Decodable, Sendable {
    var error: String
    var errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}

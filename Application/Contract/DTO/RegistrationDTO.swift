import Foundation
import RiderDomain

/// The body of `POST /auth/register`.
struct RegistrationDTO: Encodable, Sendable {
    var email: String
    var password: String
    var displayName: String
    var riderType: String

    enum CodingKeys: String, CodingKey {
        case email, password
        case displayName = "display_name"
        case riderType = "rider_type"
    }

    init(_ registration: Registration) {
        email = registration.email
        password = registration.password
        displayName = registration.displayName.trimmingCharacters(in: .whitespacesAndNewlines)
        riderType = registration.riderType.rawValue
    }
}

/// The answer to `POST /auth/register`.
struct RegisteredDTO: Decodable, Sendable {
    var id: String
}

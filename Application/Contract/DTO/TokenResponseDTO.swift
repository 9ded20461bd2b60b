import Foundation
import RiderDomain

/// A successful token endpoint response (RFC 6749 §5.1), read leniently where servers differ
/// (`expires_in` as a number or a numeric string) and strictly where safety depends on it.
struct TokenResponseDTO: Decodable, Sendable {
    var accessToken: String?
    var tokenType: String?
    var expiresIn: LenientNumber?
    var refreshToken: String?
    var userID: String?
    var role: String?
    var scope: String?
    /// OpenID Connect's id_token (Core §3.1.3.3), checked later against the provider's keys.
    var idToken: String?

    enum CodingKeys: String, CodingKey {
        case scope, role
        case idToken = "id_token"
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case userID = "user_id"
    }

    /// A JSON number, or a string holding one; anything else is `nil` rather than a failure.
    struct LenientNumber: Decodable, Sendable {
        var value: Double?
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                value = number
            } else if let text = try? container.decode(String.self) {
                value = Double(text.trimmingCharacters(in: .whitespaces))
            } else {
                value = nil
            }
        }
    }

    /// The longest token accepted. Servers refuse request headers much past 8 KiB, so a larger
    /// access token could never be used; a hostile one could fill the vault and every request.
    static let maximumTokenLength = 16 * 1024

    /// Checks the response and returns what it grants.
    /// - Throws: ``RiderError/malformedResponse(_:underlying:)`` without an access token, or with a token
    ///   that cannot travel in a header or form (control characters, non-ASCII, over 16 KiB),
    ///   `RiderError.unsupportedTokenType(_:)` for anything but Bearer.
    func toGrant(serverDate: Date? = nil) throws -> TokenGrant {
        guard let accessToken, !accessToken.isEmpty else {
            throw RiderError.malformedResponse("the token response has no access_token")
        }
        // RFC 6750 §2.1 b64token: visible ASCII without spaces. A CR or LF here would otherwise
        // end up inside the Authorization header of every request.
        guard Self.isUsable(accessToken, allowingSpace: false) else {
            throw RiderError.malformedResponse("the access_token is not a usable bearer token "
                + "(empty, over 16 KiB, or with characters a header cannot carry)")
        }
        // RFC 6749 Appendix A.17: refresh-token = 1*VSCHAR.
        if let refreshToken, !refreshToken.isEmpty, !Self.isUsable(refreshToken, allowingSpace: true) {
            throw RiderError.malformedResponse("the refresh_token is not usable "
                + "(over 16 KiB, or with characters outside visible ASCII)")
        }
        let type = tokenType ?? ""
        // RFC 9449 §5: a DPoP-bound token says so; whether one was asked for is the service's check.
        let isDPoP = type.caseInsensitiveCompare("DPoP") == .orderedSame
        guard isDPoP || type.caseInsensitiveCompare("Bearer") == .orderedSame else {
            throw RiderError.unsupportedTokenType(type.isEmpty ? "none" : ProblemMapping.clip(type))
        }
        // A compact JWS is base64url and dots only; anything else cannot be one.
        if let idToken, !Self.isUsable(idToken, allowingSpace: false) {
            throw RiderError.malformedResponse("the id_token is not a usable token (over 16 KiB, or with characters "
                + "outside visible ASCII)")
        }
        let lifetime = TokenGrant.sanitizedLifetime(expiresIn?.value)
        return TokenGrant(
            accessToken: accessToken,
            refreshToken: refreshToken.flatMap { $0.isEmpty ? nil : $0 },
            lifetime: lifetime,
            userID: userID.flatMap { $0.isEmpty ? nil : UserID($0) },
            role: role.map(Role.init(rawValue:)),
            expiresAtServerTime: lifetime == nil ? JWTExpiry.expiry(ofToken: accessToken) : nil,
            serverDate: serverDate,
            idToken: idToken.flatMap { $0.isEmpty ? nil : $0 },
            isDPoPBound: isDPoP
        )
    }

    private static func isUsable(_ token: String, allowingSpace: Bool) -> Bool {
        let lowest: UInt8 = allowingSpace ? 0x20 : 0x21
        return !token.isEmpty && token.utf8.count <= maximumTokenLength
            && token.utf8.allSatisfy { $0 >= lowest && $0 <= 0x7E }
    }
}

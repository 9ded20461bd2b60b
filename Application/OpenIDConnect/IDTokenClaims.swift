import Foundation
import RiderDomain

/// The claims of an id_token RiderKit reads (OpenID Connect Core §2), and the checks they must
/// pass before anyone is believed to be signed in (§3.1.3.7).
package struct IDTokenClaims: Decodable, Sendable, Equatable {
    package var issuer: String
    package var subject: String
    package var audiences: [String]
    package var authorizedParty: String?
    package var expiresAt: Date
    package var issuedAt: Date
    package var nonce: String?
    package var email: String?
    /// `email_verified`, when the provider said.
    package var emailVerified: Bool?
    package var name: String?

    enum CodingKeys: String, CodingKey {
        case nonce, email, name
        case emailVerified = "email_verified"
        case issuer = "iss"
        case subject = "sub"
        case audiences = "aud"
        case authorizedParty = "azp"
        case expiresAt = "exp"
        case issuedAt = "iat"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decode(String.self, forKey: .issuer)
        subject = try container.decode(String.self, forKey: .subject)
        // `aud` is one string or an array of them (§2).
        if let one = try? container.decode(String.self, forKey: .audiences) {
            audiences = [one]
        } else {
            audiences = try container.decode([String].self, forKey: .audiences)
        }
        authorizedParty = try container.decodeIfPresent(String.self, forKey: .authorizedParty)
        expiresAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .expiresAt))
        issuedAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .issuedAt))
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        email = try? container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = Self.flag(container, .emailVerified)
        name = try? container.decodeIfPresent(String.self, forKey: .name)
    }

    /// A boolean claim, also as the string `"true"`/`"false"` some providers send; `nil` when
    /// absent or anything else (which is then not taken as verified).
    package static func flag<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) -> Bool? {
        if let flag = try? container.decodeIfPresent(Bool.self, forKey: key) { return flag }
        switch try? container.decodeIfPresent(String.self, forKey: key) {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// How far the two clocks may disagree about `exp` and `iat`.
    package static let leeway: TimeInterval = 300

    /// How far a measured difference between the provider's clock and the device's (from a
    /// token response's `Date`) may move "now" for `exp` and `iat`, either way.
    ///
    /// The `Date` header is the server's word, as the id_token is: unbounded, an answer dated a
    /// year ago would let a year-old id_token pass. Bounded, a provider's clock can widen the
    /// window by at most this much beyond ``leeway``; a device further off than that is told so.
    package static let maximumClockSkew: TimeInterval = 300

    /// The identity to keep with the session.
    package var identity: AccountIdentity {
        var identity = AccountIdentity(email: email.map(ProblemMapping.clip), name: name.map(ProblemMapping.clip),
                                       source: .idToken)
        identity.emailVerified = emailVerified
        return identity
    }

    /// Reads `payload` and checks it for a sign-in of `clientID` at `issuer`.
    /// - Parameters:
    ///   - payload: the verified token's payload.
    ///   - issuer: the issuer, exactly as its metadata spells it.
    ///   - clientID: this program's client id.
    ///   - nonce: the `nonce` the authorization request sent, if it sent one.
    ///   - now: the device's clock.
    ///   - clockSkew: how far the provider's clock is ahead of the device's, as measured (negative
    ///     when behind); only ±``maximumClockSkew`` of it is applied.
    /// - Throws: `RiderError.untrustedAuthorizationResponse(_:)` naming the claim that failed.
    package static func checked(_ payload: Data, issuer: String, clientID: String, nonce: String?,
                                now: Date, clockSkew: TimeInterval = 0) throws -> IDTokenClaims {
        let claims: IDTokenClaims
        do {
            claims = try JSONDecoder().decode(IDTokenClaims.self, from: payload)
        } catch {
            throw RiderError.untrustedAuthorizationResponse("the id_token lacks a claim OpenID Connect requires "
                + "(iss, sub, aud, exp, iat)")
        }
        func refuse(_ what: String) -> RiderError { .untrustedAuthorizationResponse("the id_token " + what) }
        guard claims.issuer == issuer else { throw refuse("was issued by \(ProblemMapping.clip(claims.issuer)), not \(issuer)") }
        guard claims.audiences.contains(clientID) else { throw refuse("was issued for another client (aud)") }
        // §3.1.3.7 items 4–5: with several audiences the authorized party must be named, and be us.
        if let party = claims.authorizedParty, party != clientID { throw refuse("was issued to another party (azp)") }
        if claims.audiences.count > 1, claims.authorizedParty == nil {
            throw refuse("names several audiences but no authorized party (azp)")
        }
        // exp and iat are the provider's clock: compared with the device's, corrected by the
        // measured skew only as far as maximumClockSkew.
        let applied = min(max(clockSkew, -maximumClockSkew), maximumClockSkew)
        let providerNow = now.addingTimeInterval(applied)
        // A refusal the bound caused says so: the device's clock is what to fix then.
        let beyondBound = applied == clockSkew ? ""
            : " (this device's clock is \(abs(Int(clockSkew / 60))) min \(clockSkew > 0 ? "behind" : "ahead of") the "
                + "provider's, more than the \(Int(maximumClockSkew / 60)) min allowed for id_tokens)"
        guard providerNow < claims.expiresAt.addingTimeInterval(leeway) else { throw refuse("has expired" + beyondBound) }
        guard claims.issuedAt <= providerNow.addingTimeInterval(leeway) else {
            throw refuse("was issued in the future (iat)" + beyondBound)
        }
        if let nonce, claims.nonce != nonce {
            throw refuse("does not carry the nonce of this sign-in: it may be replayed")
        }
        guard !claims.subject.isEmpty, claims.subject.utf8.count <= 255,
              !claims.subject.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else { throw refuse("names no usable subject (sub)") }
        return claims
    }
}

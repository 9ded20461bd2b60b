import Foundation
import RiderDomain

/// One poll of the token endpoint during a device sign-in (RFC 8628 §3.4–3.5).
package enum DevicePoll: Sendable {
    /// The person approved: the tokens.
    case granted(TokenGrant)
    /// Not yet approved: ask again after the interval.
    case pending
    /// Asked too soon: ask again after a longer interval.
    case slowDown
}

extension API {
    /// `POST {device_authorization_endpoint}` (RFC 8628 §3.1–3.2): a device code for this client.
    ///
    /// The answer is checked before anyone sees it: the pages must be https (or http to a
    /// loopback address) without user name or password, because the CLI opens one in a browser;
    /// the user code must be short printable text; the lifetime and interval are clamped.
    package static func deviceAuthorization(at endpoint: URL, now: Date,
                                            in configuration: APIConfiguration) -> Endpoint<DeviceAuthorization> {
        var form: [(String, String)] = []
        if let scope = configuration.scope { form.append(("scope", scope)) }
        addResource(to: &form, configuration: configuration)
        var headers = HTTPHeaders()
        headers["Cache-Control"] = "no-store"
        addClientAuthentication(to: &form, headers: &headers, configuration: configuration)
        var request = Endpoint<DeviceAuthorization>(
            method: .post, path: endpoint.absoluteString, headers: headers, body: .form(form), authorization: .none,
            decode: { response in
                try ContractCoding.decode(DeviceAuthorizationDTO.self, from: response.body,
                                          what: "the device authorization").toDomain(now: now)
            },
            mapError: { TokenErrorMapping.error(for: $0, grant: .deviceCode) })
        request.followsRedirects = false
        return request
    }

    /// `POST {tokenPath}` with the device code grant (RFC 8628 §3.4): the tokens once the person
    /// approved, `.pending` or `.slowDown` before; `access_denied` and `expired_token` throw.
    package static func deviceCodeGrant(_ authorization: DeviceAuthorization,
                                        in configuration: APIConfiguration) -> Endpoint<DevicePoll> {
        let form = [("grant_type", AuthorizationServer.deviceCodeGrant),
                    ("device_code", authorization.deviceCode)]
        let tokens = tokenEndpoint(form: form, grant: .deviceCode, in: configuration)
        var endpoint = Endpoint<DevicePoll>(
            method: tokens.method, path: tokens.path, headers: tokens.headers, body: tokens.body,
            authorization: .none,
            decode: { response in
                guard response.status == 400 else { return .granted(try tokens.decode(response)) }
                switch try? JSONDecoder().decode(OAuthErrorDTO.self, from: response.body).error {
                case "authorization_pending": return .pending
                case "slow_down": return .slowDown
                case "access_denied": throw RiderError.authorizationDenied.answered(status: 400, problem: nil)
                case "expired_token": throw RiderError.authorizationExpired.answered(status: 400, problem: nil)
                default: throw tokens.mapError(response)
                }
            },
            mapError: tokens.mapError)
        endpoint.followsRedirects = false
        // The waiting answers are errors on the wire (400); they are read here, not thrown.
        endpoint.alsoDecodes = [400]
        return endpoint
    }
}

/// The device authorization response (RFC 8628 §3.2).
struct DeviceAuthorizationDTO: Decodable, Sendable {
    var deviceCode: String
    var userCode: String
    var verificationURI: String
    var verificationURIComplete: String?
    var expiresIn: TokenResponseDTO.LenientNumber?
    var interval: TokenResponseDTO.LenientNumber?

    enum CodingKeys: String, CodingKey {
        case interval
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
    }

    /// RFC 8628 §3.5's default interval, and the bounds RiderKit keeps a provider within.
    static let defaultInterval: TimeInterval = 5
    static let intervals: ClosedRange<TimeInterval> = 1...60
    static let lifetimes: ClosedRange<TimeInterval> = 1...3600

    func toDomain(now: Date) throws -> DeviceAuthorization {
        guard !deviceCode.isEmpty, deviceCode.count <= 4096 else {
            throw RiderError.malformedResponse("the device authorization has no usable device_code")
        }
        guard !userCode.isEmpty, userCode.count <= 64,
              !userCode.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else {
            throw RiderError.malformedResponse("the device authorization's user_code is not a short line of text")
        }
        let page = try Self.page(verificationURI, field: "verification_uri")
        let complete = try verificationURIComplete.map { try Self.page($0, field: "verification_uri_complete") }
        let lifetime = (expiresIn?.value).flatMap { $0.isFinite ? $0 : nil } ?? 600
        let interval = (interval?.value).flatMap { $0.isFinite ? $0 : nil } ?? Self.defaultInterval
        return DeviceAuthorization(
            deviceCode: deviceCode, userCode: userCode, verificationURI: page, verificationURIComplete: complete,
            expiresAt: now.addingTimeInterval(min(max(lifetime, Self.lifetimes.lowerBound), Self.lifetimes.upperBound)),
            interval: min(max(interval, Self.intervals.lowerBound), Self.intervals.upperBound))
    }

    /// A page a person will open: refused unless RiderKit would accept it as a server address.
    private static func page(_ text: String, field: String) throws -> URL {
        guard let url = URL(string: text), (try? APIConfiguration.validate(url)) != nil else {
            throw RiderError.malformedResponse("the device authorization's \(field) is not an https address "
                + "(or http to this machine) without a user name or password")
        }
        return url
    }
}

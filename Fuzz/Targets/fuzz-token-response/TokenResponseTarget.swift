import Foundation
import FuzzSupport
import RiderApplication
import RiderDomain

// A 200 answer from the token endpoint: first line = its `Date` header, rest = the JSON body.
// Reaches TokenResponseDTO (lenient expires_in, token checks), JWTExpiry (an access token that
// looks like a JWT), HTTPDate, TokenGrant → Session and their redacted renderings.

private let configuration = FuzzFixtures.baseURL.flatMap { try? APIConfiguration(baseURL: $0) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenResponse(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let configuration else { preconditionFailure("the fuzz configuration does not build") }
    let input = FuzzInput(start, count: count)
    let response = HTTPResponse(status: 200, headers: ["Date": input.headerLine], body: input.body)
    let endpoints = [
        API.passwordGrant(FuzzFixtures.credentials, in: configuration),
        API.refreshGrant("previous-refresh-token", in: configuration),
    ]
    for endpoint in endpoints {
        let grant: TokenGrant
        do {
            grant = try endpoint.response(from: response)
        } catch {
            FuzzInvariant.printable(error)
            continue
        }
        precondition(grant.accessToken.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "an unsendable access token")
        if let lifetime = grant.lifetime {
            precondition(lifetime > 0 && lifetime <= TokenGrant.maximumLifetime, "lifetime \(lifetime)")
        }
        if let lifetime = grant.effectiveLifetime(at: FuzzFixtures.now) {
            precondition(lifetime.isFinite && lifetime > 0 && lifetime <= TokenGrant.maximumLifetime)
        }
        FuzzInvariant.redacted(grant, swap: { grant in
            grant.accessToken = FuzzInvariant.otherSecret(than: grant.accessToken)
            grant.refreshToken = grant.refreshToken.map(FuzzInvariant.otherSecret(than:))
        }, renderings: FuzzInvariant.renderings(of:))
        do {
            let session = try grant.session(issuedAt: FuzzFixtures.now, userID: nil, previous: FuzzFixtures.previousSession)
            precondition(session.refreshToken != nil, "a refresh answer lost the refresh token")
            precondition(session.tokenType == "Bearer")
            FuzzInvariant.tokensRedacted(in: session)
        } catch {
            FuzzInvariant.printable(error)
        }
    }
    return 0
}

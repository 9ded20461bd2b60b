import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `rider` with DPoP (RFC 9449) against Glewlwyd 2.7.5 (Debian 12's package), a provider
/// RiderKit's authors did not write, which checks every proof itself and binds its tokens to the
/// proof's key (`cnf.jkt` in its JWT access tokens): what RiderKit signs is taken by someone
/// else's verifier, not only by the reference server that shares its authors' reading of the RFC.
@Suite("rider CLI: DPoP against an independent provider (Glewlwyd 2.7.5)", .serialized)
struct DPoPProviderSignInTests {
    /// rider pointed at the provider's issuer alone (no rider API), as its DPoP-bound client.
    static func environment(_ provider: DPoPProvider, sandbox: Sandbox, dpop: String?) throws
        -> (environment: [String: String], opened: URL) {
        let (script, opened) = try DeviceSignInTests.browser(in: sandbox)
        var environment = ["RIDER_BASE_URL": "", "RIDER_ISSUER": provider.issuer.absoluteString,
                           "RIDER_CLIENT_ID": DPoPProvider.client, "RIDER_SCOPE": "openid", "BROWSER": script.path]
        environment["RIDER_DPOP"] = dpop
        return (environment, opened)
    }

    /// `rider login --web` on the port the provider has registered, the person's part played
    /// over HTTP (`DPoPProvider.signIn(at:)`).
    static func signIn(_ provider: DPoPProvider, _ sandbox: Sandbox, environment: [String: String],
                       opened: URL) async throws -> (run: RiderRun, page: Int) {
        let (run, page) = try await DeviceSignInTests.signingIn(
            sandbox, ["login", "--web", "--listen", "127.0.0.1:\(provider.redirectPort)"],
            environment: environment, opened: opened) { start in try await provider.signIn(at: start) }
        return (run, page)
    }

    /// The key thumbprint `rider session show` names.
    static func thumbprint(in show: String) -> String? {
        show.firstMatch(of: /bound to a DPoP key \(thumbprint ([A-Za-z0-9_-]+)\)/).map { String($0.1) }
    }

    /// `cnf.jkt` of a JWT access token: the key its issuer bound it to.
    static func boundKey(of token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (claims["cnf"] as? [String: Any])?["jkt"] as? String
    }

    /// The token `rider session token` prints.
    static func token(_ sandbox: Sandbox, _ environment: [String: String]) async throws -> String {
        let printed = try await sandbox.rider(["session", "token"], environment: environment)
        guard printed.status == 0 else { throw DirectAPI.Failure(description: "session token: \(printed)") }
        return printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The two header lines `rider session token --dpop-proof METHOD URL` prints.
    static func proof(_ sandbox: Sandbox, _ environment: [String: String], _ method: String, _ url: URL) async throws
        -> [String: String] {
        let lines = try await sandbox.rider(["session", "token", "--dpop-proof", method, url.absoluteString], environment: environment)
        guard lines.status == 0 else { throw DirectAPI.Failure(description: "session token --dpop-proof: \(lines)") }
        return try DPoPSessionTests.headers(lines.stdout)
    }

    @Test("dpop required: the browser sign-in's tokens are bound to the key session show names; a refresh proves it and stays bound; the provider's userinfo takes rider's proof once, and refuses the token alone")
    func boundSession() async throws {
        try await DPoPProvider.with { provider in
            let sandbox = try Sandbox(server: nil)
            let (environment, opened) = try Self.environment(provider, sandbox: sandbox, dpop: "required")
            let (run, page) = try await Self.signIn(provider, sandbox, environment: environment, opened: opened)
            #expect(page == 200)
            #expect(run.status == 0, "\(run)\n\(provider.logged().suffix(2000))")
            #expect(run.stdout.hasPrefix("Logged in as \(DPoPProvider.email) ("), "named by the id_token's email: \(run)")

            let show = try await sandbox.rider(["session", "show"], environment: environment)
            #expect(show.status == 0, "\(show)")
            let thumbprint = try #require(Self.thumbprint(in: show.stdout), "session show says the tokens are bound: \(show)")
            let token = try await Self.token(sandbox, environment)
            #expect(Self.boundKey(of: token) == thumbprint, "Glewlwyd bound the access token to the key rider signs with")

            let whoami = try await sandbox.rider(["whoami"], environment: environment)
            #expect(whoami.status == 0 && whoami.stdout.contains(DPoPProvider.email), "\(whoami)")

            // The refresh token is bound too: Glewlwyd refreshes it only with a proof of the same key.
            let refresh = try await sandbox.rider(["session", "refresh"], environment: environment)
            #expect(refresh.status == 0, "\(refresh)\n\(provider.logged().suffix(2000))")
            let refreshed = try await Self.token(sandbox, environment)
            #expect(refreshed != token, "a new access token")
            #expect(Self.boundKey(of: refreshed) == thumbprint, "bound to the same key")
            let shownAgain = try await sandbox.rider(["session", "show"], environment: environment)
            #expect(Self.thumbprint(in: shownAgain.stdout) == thumbprint)

            // Glewlwyd's userinfo is a DPoP-protected resource: rider's proof (htm, htu, ath, a
            // fresh jti) is taken, once.
            let headers = try await Self.proof(sandbox, environment, "GET", provider.userinfo)
            #expect(headers["Authorization"] == "DPoP \(refreshed)")
            let proven = try await DPoPSessionTests.get(provider.userinfo, headers: headers)
            #expect(proven.status == 200, "\(provider.logged().suffix(2000))")
            let claims = try JSONSerialization.jsonObject(with: proven.body) as? [String: Any]
            #expect(claims?["email"] as? String == DPoPProvider.email)
            let replayed = try await DPoPSessionTests.get(provider.userinfo, headers: headers)
            #expect(replayed.status == 401, "a proof's jti is good for one request")

            // A proof for another method is not a proof for this one.
            let forPost = try await Self.proof(sandbox, environment, "POST", provider.userinfo)
            #expect(try await DPoPSessionTests.get(provider.userinfo, headers: forPost).status == 401)

            // The token copied out of the session, without a proof.
            let asBearer = try await DPoPSessionTests.get(provider.userinfo, headers: ["Authorization": "Bearer \(refreshed)"])
            #expect(asBearer.status == 401, "a bound token is refused as a bearer token")
            let unproven = try await DPoPSessionTests.get(provider.userinfo, headers: ["Authorization": "DPoP \(refreshed)"])
            #expect(unproven.status == 401, "and as a DPoP token without a proof")
        }
    }

    @Test("dpop auto binds because the provider lists ES256; with nonces on, rider answers each use_dpop_nonce at the token endpoint and keeps refreshing as the nonce rotates")
    func autoWithNonces() async throws {
        try await DPoPProvider.with(nonces: true) { provider in
            let sandbox = try Sandbox(server: nil)
            let (environment, opened) = try Self.environment(provider, sandbox: sandbox, dpop: nil)
            let (run, page) = try await Self.signIn(provider, sandbox, environment: environment, opened: opened)
            #expect(page == 200)
            #expect(run.status == 0, "\(run)\n\(provider.logged().suffix(2000))")
            let show = try await sandbox.rider(["session", "show"], environment: environment)
            let thumbprint = try #require(Self.thumbprint(in: show.stdout), "auto bound the session: \(show)")

            // Glewlwyd changes its nonce after five uses: seven refreshes see it change.
            for round in 1...7 {
                let refresh = try await sandbox.rider(["session", "refresh"], environment: environment)
                #expect(refresh.status == 0, "refresh \(round): \(refresh)\n\(provider.logged().suffix(2000))")
            }
            #expect(Self.boundKey(of: try await Self.token(sandbox, environment)) == thumbprint)
            #expect(provider.logged().contains("oidc_verify_dpop_proof - Invalid nonce"),
                    "the provider did demand its nonce")
        }
    }

    @Test("dpop off against a client the provider binds: its code exchange without a proof is refused, and nothing is stored")
    func offRefused() async throws {
        try await DPoPProvider.with { provider in
            let sandbox = try Sandbox(server: nil)
            let (environment, opened) = try Self.environment(provider, sandbox: sandbox, dpop: "off")
            let (run, _) = try await Self.signIn(provider, sandbox, environment: environment, opened: opened)
            // Glewlwyd answers 403 invalid_dpop_proof (RFC 9449 §5 says 400), which rider reports as
            // a refusal (exit 1) rather than as a failed sign-in.
            #expect(run.status != 0, "\(run)")
            #expect(sandbox.sessionFile() == nil)
            #expect(provider.logged().contains("DPoP required for client \(DPoPProvider.client)"), "refused for want of a proof")
        }
    }

    @Test("PAR required (RFC 9126): rider pushes the request with a proof of its key, and the session is bound")
    func pushedAndBound() async throws {
        try await DPoPProvider.with(pushedRequests: .required) { provider in
            let sandbox = try Sandbox(server: nil)
            let (environment, opened) = try Self.environment(provider, sandbox: sandbox, dpop: "auto")
            // The provider refuses an authorization request that was not pushed, so a sign-in
            // that goes through was pushed (with the proof Glewlwyd binds the request by).
            let (run, page) = try await Self.signIn(provider, sandbox, environment: environment, opened: opened)
            #expect(page == 200)
            #expect(run.status == 0, "\(run)\n\(provider.logged().suffix(2000))")
            let show = try await sandbox.rider(["session", "show"], environment: environment)
            let thumbprint = try #require(Self.thumbprint(in: show.stdout), "\(show)")
            #expect(Self.boundKey(of: try await Self.token(sandbox, environment)) == thumbprint)
        }
    }
}

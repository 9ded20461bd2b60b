import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RiderReferenceServer
import Testing

/// `rider` against a reference server that requires DPoP (RFC 9449): the session it stores is
/// bound to a key, every command proves it, and its token is useless on its own.
@Suite("rider CLI: a DPoP-bound session against a server that requires DPoP")
struct DPoPSessionTests {
    static let configuration = ReferenceServerConfiguration(seedUsers: 20, accessTokenTTL: .seconds(3600), dpop: .required)
    static let dpop = ["RIDER_DPOP": "required"]

    @Test("login stores a bound session; whoami and refresh work; the copied token is refused without a proof")
    func boundSession() async throws {
        try await withSandboxedReferenceServer(Self.configuration) { server, sandbox in
            let login = try await sandbox.rider(["login", "--email", Demo.email, "--password-stdin"],
                                                environment: Self.dpop, stdin: Demo.password + "\n")
            #expect(login.status == 0, "\(login)")

            let show = try await sandbox.rider(["session", "show"], environment: Self.dpop)
            #expect(show.status == 0, "\(show)")
            #expect(show.stdout.contains("bound to a DPoP key"), "\(show)")

            let whoami = try await sandbox.rider(["whoami"], environment: Self.dpop)
            #expect(whoami.status == 0, "\(whoami)")
            #expect(whoami.stdout.contains(Demo.userID), "\(whoami)")

            let refresh = try await sandbox.rider(["session", "refresh"], environment: Self.dpop)
            #expect(refresh.status == 0, "\(refresh)")
            #expect(await server.store.stats().refreshGrants == 1)

            // The token rider holds now, and the key it is bound to, as the server knows them.
            let printed = try await sandbox.rider(["session", "token"], environment: Self.dpop)
            #expect(printed.status == 0, "\(printed)")
            let token = String(printed.stdout.dropLast())
            let thumbprint = try #require(await server.store.dpopThumbprint(of: token), "the server bound the token")
            let shownAgain = try await sandbox.rider(["session", "show"], environment: Self.dpop)
            #expect(shownAgain.stdout.contains(thumbprint), "session show names the key the server bound: \(shownAgain)")

            let me = server.baseURL.appendingPathComponent("auth/me")
            let asBearer = try await Self.get(me, headers: ["Authorization": "Bearer \(token)"])
            #expect(asBearer.status == 401, "a bound token copied out of the session is refused as a bearer token")

            let lines = try await sandbox.rider(["session", "token", "--dpop-proof", "GET", me.absoluteString],
                                                environment: Self.dpop)
            #expect(lines.status == 0, "\(lines)")
            let headers = try Self.headers(lines.stdout)
            #expect(headers["Authorization"] == "DPoP \(token)")
            let proven = try await Self.get(me, headers: headers)
            #expect(proven.status == 200, "the printed header lines are taken")
            #expect(String(decoding: proven.body, as: UTF8.self).contains(Demo.email))

            let replayed = try await Self.get(me, headers: headers)
            #expect(replayed.status == 401, "a proof is good for one request")
        }
    }

    @Test("against a server that demands DPoP nonces, rider fetches one when refused and signs in and works")
    func serverNonces() async throws {
        var configuration = Self.configuration
        configuration.dpopNonces = true
        try await withSandboxedReferenceServer(configuration) { server, sandbox in
            let login = try await sandbox.rider(["login", "--email", Demo.email, "--password-stdin"],
                                                environment: Self.dpop, stdin: Demo.password + "\n")
            #expect(login.status == 0, "\(login)")
            let whoami = try await sandbox.rider(["whoami"], environment: Self.dpop)
            #expect(whoami.status == 0, "\(whoami)")
            #expect(whoami.stdout.contains(Demo.userID), "\(whoami)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    /// `Name: value` lines as a dictionary.
    static func headers(_ text: String) throws -> [String: String] {
        var headers: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { throw DirectAPI.Failure(description: "not a header line") }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    /// `GET url` with `headers`, through URLSession: no argv ever holds the token.
    static func get(_ url: URL, headers: [String: String]) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}

import Foundation
import RiderKit
import TestSupport

/// A provider RiderKit's authors did not write that checks DPoP proofs (RFC 9449) and offers
/// pushed authorization requests (RFC 9126): Glewlwyd, Debian's package, started by
/// `scripts/dpop-provider.sh` on a free loopback port with the public client `rider-dpop`, whose
/// tokens it binds to the proof's key and gives out only with a proof.
///
/// Glewlwyd's DPoP checks (src/plugin/protocol_oidc.c, `oidc_verify_dpop_proof`): the proof's
/// signature with its own `jwk`, `typ` `dpop+jwt`, `htm`, `htu`, `iat` within 60 s, a `jti` it has
/// not seen, `ath` on resource requests, the key against the one the token (or refresh token) is
/// bound to, and its `DPoP-Nonce` when nonces are on.
struct DPoPProvider: Sendable {
    /// `http://127.0.0.1:<port>/api/oidc`.
    let issuer: URL
    /// The port rider must listen on: Glewlwyd compares redirect URIs exactly, port included.
    let redirectPort: UInt16
    /// Glewlwyd's log (DEBUG: it names the check each refused proof failed).
    let log: URL

    /// The version these tests were written against. Another one fails them until someone has
    /// read its changes and moved this on, as a pinned PyPI requirement would.
    static let version = "2.7.5"

    /// The seeded person and client (scripts/dpop-provider/serve.py).
    static let username = "ana"
    static let password = "correct horse battery staple"
    static let email = "ana@example.com"
    static let client = "rider-dpop"

    /// What Glewlwyd has logged so far.
    func logged() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    var base: URL { URL(string: "http://\(issuer.host ?? "127.0.0.1"):\(issuer.port ?? 80)")! }
    var userinfo: URL { issuer.appendingPathComponent("userinfo") }

    /// Whether the provider lists its pushed authorization request endpoint (RFC 9126).
    enum PushedRequests: String, Sendable {
        case off, offered, required
    }

    /// Starts a provider, runs `body` with it, and stops it.
    /// - Parameters:
    ///   - nonces: whether every proof must carry the provider's current `DPoP-Nonce`.
    ///   - pushedRequests: whether the metadata lists `{issuer}/par`, and requires it.
    ///   - settings: more of scripts/dpop-provider.sh's switches (`DPOP_PROVIDER_REGISTRATION`,
    ///     `DPOP_PROVIDER_RESOURCES`, …), as its header documents them.
    static func with<T: Sendable>(nonces: Bool = false, pushedRequests: PushedRequests = .off,
                                  settings: [String: String] = [:],
                                  _ body: (DPoPProvider) async throws -> T) async throws -> T {
        let runDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("rider-dpop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runDirectory, withIntermediateDirectories: true)
        let output = runDirectory.appendingPathComponent("stdout")
        let errors = runDirectory.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        let redirectPort = try LoopbackSocket.closedPort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [PeerProvider.repositoryRoot.appendingPathComponent("scripts/dpop-provider.sh").path, "start",
                             runDirectory.appendingPathComponent("run").path, String(try LoopbackSocket.closedPort()),
                             "http://127.0.0.1:\(redirectPort)/callback"]
        var environment = ProcessInfo.processInfo.environment
        environment["DPOP_PROVIDER_NONCES"] = nonces ? "1" : "0"
        environment["DPOP_PROVIDER_PAR"] = pushedRequests.rawValue
        environment["DPOP_PROVIDER_LOG_LEVEL"] = "DEBUG"
        environment.merge(settings) { $1 }
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        do {
            let result = try await body(try await ready(process, output: output, errors: errors, redirectPort: redirectPort))
            await process.stop()
            try? FileManager.default.removeItem(at: runDirectory)
            return result
        } catch {
            await process.stop()
            let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: runDirectory)
            // The provider's reasons for what it refused, for whoever reads the failure.
            throw DirectAPI.Failure(description: "\(error)\n--- glewlwyd's log (last lines) ---\n\(log.suffix(3000))")
        }
    }

    /// The provider, once its ready line is out (a hang detector, not a limit).
    private static func ready(_ process: Process, output: URL, errors: URL, redirectPort: UInt16) async throws -> DPoPProvider {
        for _ in 0..<1200 {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("dpop provider ready: ") }) {
                let words = line.dropFirst("dpop provider ready: ".count).split(separator: " ")
                guard words.count == 2, let issuer = URL(string: String(words[0])) else { break }
                guard words[1] == "glewlwyd/\(version)" else {
                    throw DirectAPI.Failure(description: "these tests were written against glewlwyd/\(version), "
                        + "this machine has \(words[1]): read its changes, then move DPoPProvider.version on")
                }
                return DPoPProvider(issuer: issuer, redirectPort: redirectPort, log: errors)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        throw DirectAPI.Failure(description: "the DPoP provider did not start: \(log.suffix(2000))")
    }

    /// The person's part of a browser sign-in, done over HTTP the way Glewlwyd's own login page
    /// does it (its pages are a JavaScript application over the same API): from rider's one-time
    /// address to the provider's authorization request; signing in with the password; granting
    /// the client its scope; the authorization request again, now answered with a redirect to
    /// rider's loopback carrying the code; and that redirect followed.
    /// - Returns: the status of rider's answer to the redirect (200: signed in).
    func signIn(at start: URL) async throws -> Int {
        // Its last request is held by rider's listener until the sign-in ends: a browser's patience.
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: 120))
        defer { Task { await transport.shutdown() } }
        func send(_ method: HTTPMethod, _ url: URL, cookie: String? = nil, json: [String: String]? = nil) async throws -> HTTPResponse {
            var headers: HTTPHeaders = [:]
            if let cookie { headers["Cookie"] = cookie }
            if json != nil { headers["Content-Type"] = "application/json" }
            let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }
            return try await transport.send(HTTPRequest(method: method, url: url, headers: headers, body: body, followsRedirects: false))
        }
        func location(_ answer: HTTPResponse, of what: String) throws -> URL {
            guard (300..<400).contains(answer.status), let text = answer.headers["Location"], let url = URL(string: text) else {
                throw DirectAPI.Failure(description: "\(what) answered \(answer.status), not a redirect")
            }
            return url
        }
        let authorization = try location(try await send(.get, start), of: "rider's one-time address")

        let login = try await send(.post, base.appendingPathComponent("api/auth/"),
                                   json: ["username": Self.username, "password": Self.password])
        guard login.status == 200, let setCookie = login.headers["Set-Cookie"],
              let cookie = setCookie.split(separator: ";").first.map(String.init) else {
            throw DirectAPI.Failure(description: "the provider's password sign-in answered \(login.status)")
        }
        let scope = URLComponents(url: authorization, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "scope" }?.value ?? "openid"
        let grant = try await send(.put, base.appendingPathComponent("api/auth/grant/\(Self.client)"),
                                   cookie: cookie, json: ["scope": scope])
        guard grant.status == 200 else { throw DirectAPI.Failure(description: "the consent answered \(grant.status)") }

        // Signed in and consented, Glewlwyd still shows its login page once; going on from it
        // is the authorization request with `g_continue` added, as the page's script does.
        var next = try location(try await send(.get, authorization, cookie: cookie), of: "the authorization request")
        if next.path.hasSuffix("login.html") {
            guard let callback = URLComponents(url: next, resolvingAgainstBaseURL: false)?.queryItems?
                .first(where: { $0.name == "callback_url" })?.value, let again = URL(string: callback + "&g_continue") else {
                throw DirectAPI.Failure(description: "the login page named no callback_url: \(next)")
            }
            next = try location(try await send(.get, again, cookie: cookie), of: "the authorization request, continued")
        }
        guard next.host == "127.0.0.1", next.port.map(UInt16.init) == redirectPort else {
            throw DirectAPI.Failure(description: "the provider redirected elsewhere than rider's loopback: \(next.path)")
        }
        return try await send(.get, next).status
    }
}

import Foundation
import RiderApplication
import RiderInfrastructure
import RiderKit

/// The server half of `rider doctor`: whether the server (or the issuer) answers, over verified
/// TLS, with valid metadata offering a sign-in rider has, and how far this machine's clock is
/// from the server's `Date`.
///
/// One plain `GET` of the issuer's metadata address (or the API's base URL), without credentials
/// and through the proxies in effect, answers reachability, TLS and the clock; the metadata is
/// then read again by ``ProviderDiscovery``, with every check a sign-in makes, and kept only in
/// memory. Server text in the findings is shown as it came; ``DoctorOutput`` escapes it.
struct DoctorServerChecks: Sendable {
    /// The findings, and whether the provider offers the device flow (so that no browser, or no
    /// loopback port, is only a note).
    struct Findings: Sendable {
        var checks: [DoctorCheck]
        var offersDeviceFlow: Bool
    }

    /// Clock skew that DPoP proofs can live with: servers commonly take an `iat` within 60 s.
    static let quietSkew: TimeInterval = 60
    /// Clock skew past which id_tokens are refused (five minutes are forgiven).
    static let brokenSkew: TimeInterval = 300

    /// - Parameters:
    ///   - configuration: the settings, or `nil` when there is no server to ask (then nothing is asked).
    ///   - unchecked: why there is none, for the findings.
    static func run(_ configuration: RiderKit.Configuration?, unchecked: String = "no server is set") async -> Findings {
        let names = ["server", "tls", "metadata", "grants", "clock"]
        guard var configuration else {
            return Findings(checks: names.map { .ok($0, "not checked: \(unchecked)") }, offersDeviceFlow: false)
        }
        // Nothing of the doctor's is kept: no session is looked up, no metadata written to disk.
        configuration.vault = .memory
        configuration.cache.storage = .memory
        let rider: RiderKit
        do {
            rider = try RiderKit.live(configuration: configuration)
        } catch {
            let detail = "not checked: " + DoctorChecks.message(for: error)
            return Findings(checks: names.map { .note($0, detail) }, offersDeviceFlow: false)
        }
        let issuer = configuration.discovery?.issuer
        let target = issuer.flatMap { ProviderDiscovery.wellKnownURLs(for: $0).first } ?? configuration.api.baseURL
        let proxy = ProxyEnvironment(environment: ProcessInfo.processInfo.environment).route(for: target)
        // The timeout every command uses (`timeout`, 15 s unless set): a server slower than that
        // fails the commands too, and one the user gave more time is given it here as well.
        let answer = await reach(target, through: rider.transport, timeout: configuration.api.requestTimeout)
        var checks = [reachability(target, answer, via: proxy), tls(target, answer)]
        let grants: (check: DoctorCheck, deviceFlow: Bool)
        if rider.provider != nil, case .failure = answer.outcome {
            // The same request would fail the same way: the server check has said why.
            checks.append(.note("metadata", "not checked: the provider cannot be reached"))
            grants = (.note("grants", "not checked: no metadata"), false)
        } else if let provider = rider.provider {
            let metadata = await Self.metadata(provider)
            checks.append(metadata.check)
            grants = Self.grants(metadata.found, explicit: configuration.endpoints, clientID: configuration.api.clientID)
        } else {
            checks.append(.ok("metadata", "no issuer is set: the endpoints come from the settings "
                + "(token_path \(configuration.api.tokenPath))"))
            grants = (.ok("grants", "no issuer to ask: rider signs in with a password at token_path"),
                      configuration.endpoints.deviceAuthorization != nil)
        }
        checks.append(grants.check)
        checks.append(clock(answer))
        await rider.close()
        return Findings(checks: checks, offersDeviceFlow: grants.deviceFlow)
    }

    /// What one `GET` found: the response and when it was sent and received, or the error.
    struct Answer: Sendable {
        var outcome: Result<HTTPResponse, RiderError>
        var sent: Date
        var received: Date
    }

    private static func reach(_ url: URL, through transport: any HTTPTransport, timeout: TimeInterval) async -> Answer {
        let request = HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"],
                                  timeout: timeout, followsRedirects: false)
        let sent = Date()
        do {
            let response = try await transport.send(request)
            return Answer(outcome: .success(response), sent: sent, received: Date())
        } catch {
            let failure = error as? RiderError
                ?? RiderError.serverUnreachable(reason: "\(type(of: error)) talking to \(url.host ?? "the server")",
                                                underlying: error)
            return Answer(outcome: .failure(failure), sent: sent, received: Date())
        }
    }

    static func reachability(_ url: URL, _ answer: Answer, via proxy: ProxyEnvironment.Route) -> DoctorCheck {
        let route = proxy == .direct ? "" : " through the \(proxy)"
        switch answer.outcome {
        case .success(let response):
            let milliseconds = Int((answer.received.timeIntervalSince(answer.sent) * 1000).rounded())
            return .ok("server", "\(url.absoluteString) answers\(route) (HTTP \(response.status) in \(milliseconds) ms)")
        case .failure(let error):
            return .fail("server", "\(url.absoluteString) cannot be reached\(route): \(ErrorAdvice.message(for: error))",
                         fix: error.message.contains("TLS") ? "see the tls check below"
                            : "check the address (rider config show), the network, and the proxy variables "
                                + "(the proxy check below)")
        }
    }

    static func tls(_ url: URL, _ answer: Answer) -> DoctorCheck {
        guard url.scheme?.lowercased() == "https" else {
            return .ok("tls", "plain http to this machine (loopback): no TLS to check")
        }
        let host = url.host ?? url.absoluteString
        switch answer.outcome {
        case .success:
            return .ok("tls", "\(host)'s certificate is trusted and names it")
        case .failure(let error) where error.message.contains("TLS"):
            let cause = error.underlying.map { " (\(String(describing: $0).prefix(300)))" } ?? ""
            return .fail("tls", ErrorAdvice.message(for: error) + cause,
                         fix: "trust the authority that signed the server's certificate (the ca-certificates "
                            + "package, or SSL_CERT_FILE), and check the clock and any proxy that intercepts TLS")
        case .failure:
            return .note("tls", "not checked: the server cannot be reached")
        }
    }

    /// The metadata as a sign-in would take it, or why it would not.
    private static func metadata(_ provider: ProviderDiscovery) async -> (check: DoctorCheck, found: ProviderMetadata?) {
        do {
            let discovered = try await provider.metadata(reload: true)
            if case .offline(let reason) = discovered.source {
                return (.fail("metadata", "the provider cannot be reached (\(ErrorAdvice.message(for: reason))); "
                                + "a copy kept since \(discovered.storedAt.formatted(.iso8601)) would be used",
                              fix: "see the server check above"), discovered.metadata)
            }
            let endpoints = discovered.metadata.endpoints.named.map(\.name).joined(separator: ", ")
            return (.ok("metadata", "valid, for the issuer \(discovered.metadata.issuer); endpoints: \(endpoints)"),
                    discovered.metadata)
        } catch {
            return (.fail("metadata", DoctorChecks.message(for: error),
                          fix: (error as? RiderError)?.code == .invalidConfiguration
                            ? "set issuer to exactly what the provider calls itself (rider provider show), or leave "
                                + "it unset and set token_path and the other endpoints"
                            : "see the server check above"), nil)
        }
    }

    /// The grant types the provider offers, and which of rider's sign-ins they allow.
    static func grants(_ metadata: ProviderMetadata?, explicit: ProviderEndpoints,
                       clientID: String?) -> (check: DoctorCheck, deviceFlow: Bool) {
        guard let metadata else { return (.note("grants", "not checked: no metadata"), false) }
        let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"
        let browser = metadata.supportsGrant("authorization_code")
            && (explicit.authorization ?? metadata.endpoints.authorization) != nil
        let device = metadata.supportsGrant(deviceGrant)
            && (explicit.deviceAuthorization ?? metadata.endpoints.deviceAuthorization) != nil
        let password = metadata.supportsGrant("password")
        let ways = [(browser, "the browser"), (device, "a device code"), (password, "a password")]
            .filter(\.0).map(\.1)
        let offered = metadata.effectiveGrantTypes.joined(separator: ", ")
            + (metadata.grantTypesSupported == nil ? " (not stated: RFC 8414's default)" : "")
        guard !ways.isEmpty else {
            return (.fail("grants", "the provider offers \(offered): none of rider's sign-ins (browser, device code, "
                            + "password)",
                          fix: "ask the provider's administrators to allow authorization_code or the device flow "
                            + "for rider's client"), false)
        }
        let detail = "the provider offers \(offered): rider can sign in with \(ways.joined(separator: ", "))"
        if (browser || device), (clientID ?? "").isEmpty {
            return (.note("grants", detail + " (the browser and a device code once client_id is set)",
                          fix: "rider config set client_id ID (the id the provider registered for rider)"), device)
        }
        return (.ok("grants", detail), device)
    }

    /// This machine's clock against the server's `Date` header, taken halfway through the request.
    static func clock(_ answer: Answer) -> DoctorCheck {
        guard case .success(let response) = answer.outcome else {
            return .note("clock", "not checked: the server cannot be reached")
        }
        guard let header = response.headers["Date"], let serverTime = httpDate(header) else {
            return .note("clock", "not checked: the server sent no Date header")
        }
        // The server wrote its Date somewhere between sending and receiving: the midpoint is the
        // best guess, off by up to half the round trip either way.
        let roundTrip = max(0, answer.received.timeIntervalSince(answer.sent))
        let local = answer.sent.addingTimeInterval(roundTrip / 2)
        return clock(serverTime: serverTime, header: header, local: local, uncertainty: roundTrip / 2)
    }

    /// `local` against the server's time: a Date header has whole seconds, so up to a second
    /// either way is no skew at all, and neither is what `uncertainty` (half the round trip) allows.
    static func clock(serverTime: Date, header: String, local: Date, uncertainty: TimeInterval = 0) -> DoctorCheck {
        let skew = serverTime.timeIntervalSince(local)
        // Only what the measurement cannot explain counts.
        let measured = max(0, abs(skew) - uncertainty)
        let seconds = Int(measured.rounded())
        let direction = skew > 0 ? "behind" : "ahead of"
        let detail = "this machine's clock is \(seconds) s \(direction) the server's (Date: \(header))"
        let fix = "set the clock right: timedatectl set-ntp true, or your system's NTP client"
        if measured <= 1.5 { return .ok("clock", "this machine's clock agrees with the server's (Date: \(header))") }
        if measured < quietSkew { return .ok("clock", detail) }
        if measured <= brokenSkew {
            return .note("clock", detail + "; DPoP proofs may be refused (servers take about 60 s)", fix: fix)
        }
        return .fail("clock", detail + "; id_tokens (5 min forgiven) and DPoP proofs are refused", fix: fix)
    }

    /// An HTTP date (RFC 9110 §5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}

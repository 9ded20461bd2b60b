import Foundation
import RiderReferenceServer
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `rider doctor` through the real binary: what it finds on a machine with no session bus, a
/// world-writable vault folder, a server whose clock is off, an issuer nobody answers at, metadata
/// of another issuer or none at all, and a healthy provider; and its exit status for each.
@Suite("rider doctor")
struct DoctorTests {
    /// One check of `rider doctor --json`.
    struct Check {
        let status: String
        let detail: String
        let fix: String?
    }

    /// The checks of a `--json` run, by name, and whether it called the machine healthy.
    static func checks(_ run: RiderRun) throws -> (checks: [String: Check], healthy: Bool) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                  "\(run)")
        let list = try #require(object["checks"] as? [[String: Any]], "\(run)")
        var checks: [String: Check] = [:]
        for check in list {
            let name = try #require(check["name"] as? String)
            checks[name] = Check(status: try #require(check["status"] as? String),
                                 detail: try #require(check["detail"] as? String), fix: check["fix"] as? String)
        }
        return (checks, try #require(object["healthy"] as? Bool))
    }

    /// An HTTP date for a server clock `offset` seconds from this one.
    private static func httpDate(offset: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date().addingTimeInterval(offset))
    }

    @Test("no session bus: the keyring steps are notes while the encrypted file serves (exit 0), a failure when the keyring is required (exit 1)")
    func noBus() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        try await withReferenceServer { server in
            let url = server.baseURL.absoluteString
            let run = try await sandbox.rider(["--server", url, "doctor", "--json"],
                                              environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
            #expect(run.status == 0, "\(run)")
            let (checks, healthy) = try Self.checks(run)
            #expect(healthy)
            #expect(checks["dbus"]?.status == "note", "\(run)")
            #expect(checks["dbus"]?.detail.hasPrefix("no D-Bus session bus") == true, "\(run)")
            #expect(checks["dbus"]?.fix?.contains("the encrypted file keeps the session") == true)
            #expect(checks["secret-service"]?.detail.hasPrefix("not checked") == true)
            #expect(checks["keyring-collection"]?.status == "note")
            for name in ["config", "vault-folder", "user-cache", "server", "tls", "clock", "loopback", "proxy"] {
                #expect(checks[name]?.status == "ok", "\(name): \(run)")
            }
            #expect(checks["clock"]?.detail.contains("agrees with the server's") == true, "\(run)")

            let required = try await sandbox.rider(["--server", url, "doctor"],
                                                   environment: ["DBUS_SESSION_BUS_ADDRESS": "", "RIDER_VAULT": "secret-service"])
            #expect(required.status == 1, "\(required)")
            #expect(required.stdout.contains("fail  dbus"), "\(required)")
            #expect(required.stdout.contains("fix: run rider in a desktop session"), "\(required)")
            #expect(required.stdout.contains("1 check fails"), "\(required)")
        }
    }

    @Test("a session bus that never answers ends the keyring checks at the keyring timeout, not in a hang")
    func stuckBus() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        // A socket that takes connections into its backlog and never says a word.
        let path = sandbox.root.appendingPathComponent("stuck-bus").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(listener, 8) == 0)

        let start = ContinuousClock.now
        let run = try await sandbox.rider(["doctor", "--json"], environment: [
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(path)", "RIDER_KEYRING_TIMEOUT": "1",
        ])
        #expect(ContinuousClock.now - start < .seconds(20), "\(run)")
        #expect(run.status == 0, "\(run)")
        let dbus = try #require(try Self.checks(run).checks["dbus"], "\(run)")
        #expect(dbus.status == "note")
        #expect(dbus.detail == "the D-Bus session bus did not answer within 1.0 seconds", "\(run)")
    }

    @Test("a world-writable vault folder fails with the chmod that fixes it (exit 1); fixed, it passes (exit 0)")
    func worldWritableVaultFolder() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let folder = sandbox.root.appendingPathComponent("open", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        #expect(chmod(folder.path, 0o777) == 0)
        let vault = ["RIDER_VAULT": "file:" + folder.appendingPathComponent("session.vault").path]

        let run = try await sandbox.rider(["doctor", "--json"], environment: vault)
        #expect(run.status == 1, "\(run)")
        let (checks, healthy) = try Self.checks(run)
        #expect(!healthy)
        #expect(checks["vault-folder"]?.status == "fail", "\(run)")
        #expect(checks["vault-folder"]?.detail.contains("let other users change what is in it") == true, "\(run)")
        #expect(checks["vault-folder"]?.fix?.hasPrefix("chmod 700 ") == true, "\(run)")
        #expect(checks["vault-folder"]?.fix?.hasSuffix("/open/") == true, "\(run)")
        #expect(checks.values.filter { $0.status == "fail" }.count == 1, "only the folder is broken: \(run)")

        #expect(chmod(folder.path, 0o700) == 0)
        let fixed = try await sandbox.rider(["doctor", "--json"], environment: vault)
        #expect(fixed.status == 0, "\(fixed)")
        #expect(try Self.checks(fixed).checks["vault-folder"]?.status == "ok")
    }

    @Test("a server clock an hour off fails the clock check (exit 1); two minutes off is a note (exit 0)")
    func skewedClock() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        func server(offset: TimeInterval) throws -> CannedHTTPServer {
            try CannedHTTPServer(response: "HTTP/1.1 404 Not Found\r\nDate: \(Self.httpDate(offset: offset))\r\n"
                + "Content-Type: text/plain\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
        let hourBehind = try server(offset: -3600)
        defer { hourBehind.stop() }
        let run = try await sandbox.rider(["--server", hourBehind.baseURL, "doctor", "--json"], environment: [:])
        #expect(run.status == 1, "\(run)")
        let clock = try #require(try Self.checks(run).checks["clock"], "\(run)")
        #expect(clock.status == "fail", "\(run)")
        #expect(clock.detail.contains("s ahead of the server's"), "\(run)")
        #expect(clock.fix?.contains("timedatectl set-ntp true") == true)

        let twoMinutesAhead = try server(offset: 120)
        defer { twoMinutesAhead.stop() }
        let mild = try await sandbox.rider(["--server", twoMinutesAhead.baseURL, "doctor", "--json"], environment: [:])
        #expect(mild.status == 0, "\(mild)")
        #expect(try Self.checks(mild).checks["clock"]?.status == "note", "\(mild)")
    }

    @Test("an issuer nobody answers at fails the server check with its fix; the metadata is not checked (exit 1)")
    func unreachableIssuer() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let issuer = "http://127.0.0.1:\(try LoopbackSocket.closedPort())"
        let run = try await sandbox.rider(["--issuer", issuer, "doctor", "--json"], environment: [:])
        #expect(run.status == 1, "\(run)")
        let (checks, _) = try Self.checks(run)
        #expect(checks["server"]?.status == "fail", "\(run)")
        #expect(checks["server"]?.detail.contains("\(issuer)/.well-known/openid-configuration cannot be reached") == true,
                "\(run)")
        #expect(checks["server"]?.fix?.contains("rider config show") == true)
        #expect(checks["metadata"]?.status == "note")
        #expect(checks["clock"]?.status == "note")

        let human = try await sandbox.rider(["--issuer", issuer, "doctor"], environment: [:])
        #expect(human.status == 1)
        #expect(human.stdout.contains("fail  server"), "\(human)")
        #expect(human.stdout.contains("fix: check the address"), "\(human)")
    }

    @Test("metadata naming another issuer fails the metadata check with its fix; the grants are not checked (exit 1)")
    func metadataOfAnotherIssuer() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        try await withReferenceServer { server in
            // The same server under another name: its metadata names it as 127.0.0.1.
            let spelledOtherwise = "http://localhost:\(server.baseURL.port ?? 0)"
            let run = try await sandbox.rider(["--issuer", spelledOtherwise, "doctor", "--json"], environment: [:])
            #expect(run.status == 1, "\(run)")
            let (checks, healthy) = try Self.checks(run)
            #expect(!healthy)
            #expect(checks["server"]?.status == "ok", "the server answers: \(run)")
            let metadata = try #require(checks["metadata"], "\(run)")
            #expect(metadata.status == "fail", "\(run)")
            #expect(metadata.detail.contains("names the issuer '\(server.baseURL.absoluteString)'")
                && metadata.detail.contains("not the configured '\(spelledOtherwise)'"), "\(run)")
            #expect(metadata.fix?.contains("set issuer to exactly what the provider calls itself") == true, "\(run)")
            #expect(checks["grants"]?.status == "note", "\(run)")

            let human = try await sandbox.rider(["--issuer", spelledOtherwise, "doctor"], environment: [:])
            #expect(human.status == 1, "\(human)")
            #expect(human.stdout.contains("fail  metadata"), "\(human)")
        }
    }

    @Test("a metadata address that answers something other than metadata fails the metadata check (exit 1)")
    func metadataThatIsNotMetadata() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let body = "<html>sign in</html>"
        let page = try CannedHTTPServer(response: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        defer { page.stop() }
        let run = try await sandbox.rider(["--issuer", page.baseURL, "doctor", "--json"], environment: [:])
        #expect(run.status == 1, "\(run)")
        let (checks, _) = try Self.checks(run)
        #expect(checks["server"]?.status == "ok", "\(run)")
        #expect(checks["metadata"]?.status == "fail", "\(run)")
        #expect(checks["metadata"]?.detail.contains("provider metadata") == true, "\(run)")
        #expect(checks["grants"]?.status == "note", "\(run)")
    }

    @Test("https to a server that does not speak TLS fails the tls check with its fix (exit 1)")
    func failedTLS() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let plain = try CannedHTTPServer(response: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        defer { plain.stop() }
        let run = try await sandbox.rider(["--server", "https://127.0.0.1:\(plain.port)", "doctor", "--json"],
                                          environment: [:])
        #expect(run.status == 1, "\(run)")
        let (checks, _) = try Self.checks(run)
        #expect(checks["tls"]?.status == "fail", "\(run)")
        #expect(checks["tls"]?.detail.contains("TLS connection to 127.0.0.1 failed") == true, "\(run)")
        #expect(checks["tls"]?.fix?.contains("ca-certificates") == true, "\(run)")
        #expect(checks["server"]?.fix == "see the tls check below", "\(run)")
    }

    @Test("a working issuer: valid metadata and the sign-ins its grants allow; no browser is only a note (exit 0)")
    func workingIssuer() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        try await withReferenceServer { server in
            let run = try await sandbox.rider(["--issuer", server.baseURL.absoluteString, "doctor", "--json"],
                                              environment: ["RIDER_CLIENT_ID": "rider-cli"])
            #expect(run.status == 0, "\(run)")
            let (checks, healthy) = try Self.checks(run)
            #expect(healthy)
            #expect(checks["metadata"]?.status == "ok", "\(run)")
            #expect(checks["metadata"]?.detail.contains("device_authorization_endpoint") == true, "\(run)")
            #expect(checks["grants"]?.status == "ok", "\(run)")
            #expect(checks["grants"]?.detail.contains("the browser, a device code") == true, "\(run)")
            #expect(checks["browser"]?.status == "note", "the sandbox has no BROWSER and no display: \(run)")
            #expect(checks["browser"]?.fix?.contains("rider login --device") == true, "\(run)")
        }
    }
}

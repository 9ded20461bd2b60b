import Foundation
@testable import RiderCLI
import RiderInfrastructure
import RiderKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `rider doctor`'s checks one at a time, each passing and failing, on real folders, real
/// sockets and the keyring answers the Secret Service probe gives.
@Suite("rider doctor: each check, passing and failing")
struct DoctorChecksTests {
    /// A private temporary folder, removed after `body`.
    private func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    private func named(_ name: String, in checks: [DoctorCheck]) throws -> DoctorCheck {
        try #require(checks.first { $0.name == name }, "no \(name) check in \(checks.map(\.name))")
    }

    // MARK: Keyring

    @Test("an unlocked default collection is ok at every step")
    func unlockedKeyring() throws {
        let checks = DoctorChecks.keyring(.collection(label: "Login", locked: false), vault: .automatic,
                                          encryptedFileServes: true, busAddress: "unix:path=/run/user/1000/bus")
        #expect(checks.map(\.name) == ["dbus", "secret-service", "keyring-collection"])
        #expect(checks.allSatisfy { $0.status == .ok })
        #expect(try named("keyring-collection", in: checks).detail.contains("\"Login\" is unlocked"))
    }

    @Test("a locked collection is a note while the encrypted file serves, and a failure when the keyring is required")
    func lockedKeyring() throws {
        let locked = SecretServiceDiagnosis.collection(label: "Login", locked: true)
        let automatic = try named("keyring-collection", in: DoctorChecks.keyring(
            locked, vault: .automatic, encryptedFileServes: true, busAddress: nil))
        #expect(automatic.status == .note)
        #expect(automatic.detail.contains("\"Login\" is locked"))
        #expect(automatic.fix?.contains("unlock it") == true)
        #expect(automatic.fix?.contains("encrypted file keeps the session") == true)

        let required = try named("keyring-collection", in: DoctorChecks.keyring(
            locked, vault: .secretService, encryptedFileServes: true, busAddress: nil))
        #expect(required.status == .fail)

        let nothingElse = try named("keyring-collection", in: DoctorChecks.keyring(
            locked, vault: .automatic, encryptedFileServes: false, busAddress: nil))
        #expect(nothingElse.status == .fail, "the encrypted file cannot serve either")

        let unused = try named("keyring-collection", in: DoctorChecks.keyring(
            locked, vault: .encryptedFile(nil), encryptedFileServes: true, busAddress: nil))
        #expect(unused.status == .ok && unused.detail.contains("not used"))
    }

    @Test("no session bus: dbus says why, and the Secret Service steps after it are not checked")
    func noBus() throws {
        let checks = DoctorChecks.keyring(.busUnavailable(reason: "Cannot autolaunch D-Bus without X11 $DISPLAY"),
                                          vault: .automatic, encryptedFileServes: true, busAddress: nil)
        let bus = try named("dbus", in: checks)
        #expect(bus.status == .note)
        #expect(bus.detail.contains("no D-Bus session bus: Cannot autolaunch"))
        #expect(bus.fix?.contains("dbus-run-session") == true)
        #expect(try named("secret-service", in: checks).detail.hasPrefix("not checked"))
        #expect(try named("keyring-collection", in: checks).detail.hasPrefix("not checked"))
        #expect(!checks.contains { $0.status == .fail })
    }

    @Test("a keyring step that does not answer in time names the step and the timeout")
    func keyringTimeout() throws {
        let checks = DoctorChecks.keyring(.timedOut(step: .service, after: .seconds(2)), vault: .secretService,
                                          encryptedFileServes: true, busAddress: "unix:path=/tmp/bus")
        #expect(try named("dbus", in: checks).status == .ok)
        let service = try named("secret-service", in: checks)
        #expect(service.status == .fail)
        #expect(service.detail == "the Secret Service did not answer within 2.0 seconds")
        #expect(service.fix?.contains("keyring_timeout") == true)
    }

    @Test("the real probe ends within its timeout however the keyring stands")
    func probeIsBounded() async {
        let start = ContinuousClock.now
        let diagnosis = await SecretServiceDiagnosis.run(timeout: .seconds(2))
        // A hang detector, not a speed limit (2 cores under the whole suite can add seconds).
        #expect(ContinuousClock.now - start < .seconds(30), "\(diagnosis)")
    }

    // MARK: Kernel keyring

    @Test("kernel keyring: refused keyctl is a note with its fix; not needed for the keyring vault")
    func kernelKeyring() {
        let retention = VaultUnlockRetention.kernelKeyring(timeout: .seconds(900))
        #expect(DoctorChecks.kernelKeyring(retention, availability: .available, vault: .automatic).status == .ok)
        let refused = DoctorChecks.kernelKeyring(retention, availability: .unavailable(reason: "keyctl is refused (EPERM)"),
                                                 vault: .encryptedFile(nil))
        #expect(refused.status == .note)
        #expect(refused.fix?.contains("RIDER_VAULT_PASSPHRASE_FILE") == true)
        #expect(DoctorChecks.kernelKeyring(retention, availability: .unavailable(reason: "x"), vault: .secretService).status == .ok)
    }

    // MARK: Files

    @Test("a private vault folder with a 0600 session file is ok")
    func privateVaultFolder() throws {
        try withFolder { folder in
            let file = folder.appendingPathComponent("session.0123456789abcdef.vault")
            #expect(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8),
                                                   attributes: [.posixPermissions: 0o600]))
            let check = DoctorChecks.vaultFolder(folder, vault: .automatic)
            #expect(check.status == .ok, "\(check)")
            #expect(check.detail.contains("(mode 0700): 1 session file"))
        }
    }

    @Test("a vault folder that does not exist yet is ok when the folder above it is")
    func missingVaultFolder() throws {
        try withFolder { folder in
            let check = DoctorChecks.vaultFolder(folder.appendingPathComponent("rider/server"), vault: .automatic)
            #expect(check.status == .ok, "\(check)")
            #expect(check.detail.contains("does not exist yet"))
        }
    }

    @Test("a world-writable vault folder fails, and the fix is chmod 700")
    func worldWritableVaultFolder() throws {
        try withFolder { folder in
            let open = folder.appendingPathComponent("open")
            try FileManager.default.createDirectory(at: open, withIntermediateDirectories: false)
            #expect(chmod(open.path, 0o777) == 0)
            let check = DoctorChecks.vaultFolder(open, vault: .automatic)
            #expect(check.status == .fail)
            #expect(check.detail.contains("let other users change what is in it"), "\(check)")
            #expect(check.fix == "chmod 700 \(open.path)/")
        }
    }

    @Test("a session file others may read fails, and the fix is chmod 600")
    func readableSessionFile() throws {
        try withFolder { folder in
            let file = folder.appendingPathComponent("session.vault")
            #expect(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8),
                                                   attributes: [.posixPermissions: 0o644]))
            let check = DoctorChecks.vaultFolder(folder, vault: .automatic)
            #expect(check.status == .fail)
            #expect(check.fix == "chmod 600 \(file.path)")
        }
    }

    @Test("a config file others may write fails with its chmod; a private one is ok")
    func configFile() throws {
        try withFolder { folder in
            let file = folder.appendingPathComponent("config.json")
            #expect(FileManager.default.createFile(atPath: file.path, contents: Data(#"{"timeout": 9}"#.utf8),
                                                   attributes: [.posixPermissions: 0o600]))
            let environment = ["RIDER_CONFIG": file.path, "HOME": folder.path, "RIDER_BASE_URL": "http://127.0.0.1:9"]
            let (good, loaded) = DoctorChecks(environment: environment, server: nil, issuer: nil).configuration()
            #expect(good.status == .ok, "\(good)")
            #expect(good.detail.contains("(mode 0600)"))
            #expect(loaded?.namesServer == true)

            #expect(chmod(file.path, 0o666) == 0)
            let (bad, none) = DoctorChecks(environment: environment, server: nil, issuer: nil).configuration()
            #expect(bad.status == .fail)
            #expect(bad.fix == "chmod go-w \(file.path)", "\(bad)")
            #expect(none == nil)
        }
    }

    @Test("no server set is a note, and the other settings are still read")
    func noServer() throws {
        try withFolder { folder in
            let environment = ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "RIDER_VAULT": "encrypted-file"]
            let (check, loaded) = DoctorChecks(environment: environment, server: nil, issuer: nil).configuration()
            #expect(check.status == .note)
            #expect(check.fix?.contains("base_url") == true)
            #expect(loaded?.namesServer == false)
            #expect(loaded?.configuration.vault == .encryptedFile(nil))
        }
    }

    @Test("a user cache file that is not SQLite is a note: it is moved aside when next opened")
    func damagedCacheFile() throws {
        try withFolder { folder in
            let environment = ["HOME": folder.path, "XDG_CACHE_HOME": folder.path, "XDG_CONFIG_HOME": folder.path,
                               "RIDER_BASE_URL": "http://127.0.0.1:9"]
            let configuration = try RiderKit.Configuration.load(environment: environment)
            let file = SQLiteUserCache.defaultFile(forOrigin: configuration.api.origin, in: configuration.directories)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            #expect(DoctorChecks.userCache(configuration).status == .ok)

            let account = file.deletingLastPathComponent().appendingPathComponent("users.0011223344556677.sqlite")
            try Data(repeating: 0x41, count: 4096).write(to: account)
            let check = DoctorChecks.userCache(configuration)
            #expect(check.status == .note)
            #expect(check.detail.contains("users.0011223344556677.sqlite is not an SQLite database"))
        }
    }

    // MARK: Server

    @Test("clock: agreement is ok, a two-minute skew a note, an hour a failure")
    func clockSkew() {
        let local = Date(timeIntervalSince1970: 1_800_000_000)
        let header = "Fri, 15 Jan 2027 08:00:00 GMT"
        #expect(DoctorServerChecks.clock(serverTime: local.addingTimeInterval(1), header: header, local: local).status == .ok)
        // A slow answer widens what counts as agreeing: the server's Date may be from either end.
        let slow = DoctorServerChecks.clock(serverTime: local.addingTimeInterval(8), header: header, local: local,
                                            uncertainty: 10)
        #expect(slow.status == .ok && slow.detail.contains("agrees"))
        let minutes = DoctorServerChecks.clock(serverTime: local.addingTimeInterval(-120), header: header, local: local)
        #expect(minutes.status == .note)
        #expect(minutes.detail.hasPrefix("this machine's clock is 120 s ahead of the server's"))
        let hour = DoctorServerChecks.clock(serverTime: local.addingTimeInterval(3600), header: header, local: local)
        #expect(hour.status == .fail)
        #expect(hour.detail.hasPrefix("this machine's clock is 3600 s behind the server's"))
        #expect(hour.fix?.contains("timedatectl set-ntp true") == true)
    }

    @Test("the server's Date header is read as an HTTP date; a response without one is not compared")
    func dateHeader() {
        #expect(DoctorServerChecks.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(DoctorServerChecks.httpDate("yesterday") == nil)
        let now = Date()
        let answer = DoctorServerChecks.Answer(outcome: .success(HTTPResponse(status: 200)), sent: now, received: now)
        #expect(DoctorServerChecks.clock(answer).status == .note)
    }

    @Test("an unreachable server fails with the reason; TLS and the clock are then not checked")
    func unreachable() {
        let url = URL(string: "https://id.example.test/.well-known/openid-configuration")!
        let now = Date()
        let answer = DoctorServerChecks.Answer(
            outcome: .failure(.serverUnreachable(reason: "connection to id.example.test refused")), sent: now, received: now)
        let server = DoctorServerChecks.reachability(url, answer, via: .direct)
        #expect(server.status == .fail)
        #expect(server.detail.contains("cannot be reached"))
        #expect(DoctorServerChecks.tls(url, answer).status == .note)
        #expect(DoctorServerChecks.clock(answer).status == .note)
        let failedTLS = DoctorServerChecks.Answer(
            outcome: .failure(.serverUnreachable(reason: "TLS connection to id.example.test failed")), sent: now, received: now)
        #expect(DoctorServerChecks.tls(url, failedTLS).status == .fail)
    }

    @Test("grants: a provider offering none of rider's sign-ins fails; the device flow is reported")
    func grants() {
        let none = ProviderMetadata(issuer: "https://id.example.test", grantTypesSupported: ["client_credentials"])
        #expect(DoctorServerChecks.grants(none, explicit: ProviderEndpoints(), clientID: "rider").check.status == .fail)
        let device = ProviderMetadata(
            issuer: "https://id.example.test",
            endpoints: ProviderEndpoints(deviceAuthorization: URL(string: "https://id.example.test/device")),
            grantTypesSupported: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"])
        let found = DoctorServerChecks.grants(device, explicit: ProviderEndpoints(), clientID: "rider")
        #expect(found.check.status == .ok)
        #expect(found.check.detail.hasSuffix("rider can sign in with a device code"))
        #expect(found.deviceFlow)
        #expect(DoctorServerChecks.grants(device, explicit: ProviderEndpoints(), clientID: nil).check.status == .note)
    }

    // MARK: This machine

    @Test("loopback: a free port is ok; a busy listen port fails, or is a note while the device flow serves")
    func loopback() throws {
        #expect(DoctorChecks.loopback([], deviceFlowServes: false).status == .ok)
        let busy = try BusyPort()
        defer { busy.close() }
        let address = try LoopbackListenAddress(parsing: "127.0.0.1:\(busy.port)")
        let taken = DoctorChecks.loopback([address], deviceFlowServes: false)
        #expect(taken.status == .fail)
        #expect(taken.detail.contains("127.0.0.1:\(busy.port): Address already in use"), "\(taken)")
        #expect(DoctorChecks.loopback([address], deviceFlowServes: true).status == .note)
        let next = DoctorChecks.loopback([address, .ephemeral], deviceFlowServes: false)
        #expect(next.status == .ok && next.detail.contains("already in use"), "the busy one is named: \(next)")
    }

    @Test("browser: $BROWSER is ok; none is a note naming paste-back and the device flow")
    func browser() {
        #expect(DoctorChecks.browser(environment: ["BROWSER": "w3m"], deviceFlowServes: false).status == .ok)
        let none = DoctorChecks.browser(environment: ["PATH": "/nonexistent"], deviceFlowServes: true)
        #expect(none.status == .note)
        #expect(none.fix?.contains("rider login --device") == true)
        #expect(none.fix?.contains("--no-browser") == true)
    }

    @Test("proxy variables show their names and hosts, never a password")
    func proxyHostsOnly() {
        let check = DoctorChecks.proxy(environment: [
            "https_proxy": "http://ana:hunter2@proxy.example.test:3128", "no_proxy": "internal.example.test, .corp",
        ])
        #expect(check.status == .ok)
        #expect(check.detail.contains("https_proxy: http proxy proxy.example.test:3128"))
        #expect(check.detail.contains("no_proxy: internal.example.test .corp"))
        #expect(!check.detail.contains("hunter2") && !check.detail.contains("ana:"))
        #expect(DoctorChecks.proxy(environment: [:]).detail.contains("requests go direct"))
    }

    @Test("an unusable proxy variable fails, naming the variable and not its value")
    func badProxy() {
        let check = DoctorChecks.proxy(environment: ["https_proxy": "ftp://ana:hunter2@proxy.example.test"])
        #expect(check.status == .fail)
        #expect(check.detail.contains("https_proxy"))
        #expect(!check.detail.contains("hunter2"))
    }

    // MARK: Output

    @Test("output: the fix under a failure, escaped server text, and healthy only without failures")
    func output() throws {
        let checks: [DoctorCheck] = [.ok("config", "fine"), .note("browser", "none", fix: "set BROWSER"),
                                     .fail("clock", "Date: \u{1B}]0;owned\u{07}", fix: "timedatectl set-ntp true")]
        let output = DoctorOutput(checks)
        #expect(!output.healthy)
        #expect(DoctorOutput(Array(checks.prefix(2))).healthy)
        #expect(output.lines.contains { $0.hasSuffix("fix: timedatectl set-ntp true") })
        #expect(!output.lines.joined().contains("\u{1B}"), "server text is escaped for the terminal")
        let json = try #require(JSONOutput.string(output))
        #expect(json.contains(#"{"detail":"fine","fix":null,"name":"config","status":"ok"}"#))
        #expect(json.contains(#""healthy":false"#))
    }
}

/// A loopback port held open for the length of a test.
private struct BusyPort {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }
}

import Foundation
import RiderApplication
import RiderInfrastructure
import RiderKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The checks of `rider doctor`, in the order it takes them: the config file, the keyring chain
/// (session bus, Secret Service, default collection), the kernel keyring, the vault's folder, the
/// user cache, the server (reachability, TLS, metadata, grants, clock), the loopback listener, a
/// browser, and the proxy variables.
///
/// Each check is a function of what it looks at, so tests hand it a folder, a keyring answer or a
/// `Date` header; ``run()`` gathers them from this machine. None changes anything, asks for a
/// passphrase, opens a browser or waits past a timeout.
struct DoctorChecks: Sendable {
    /// Where the settings, the folders, the proxies and the browser come from.
    let environment: [String: String]
    /// `--server` and `--issuer`.
    let server: String?
    let issuer: String?

    /// Every check, in order.
    func run() async -> [DoctorCheck] {
        let (configCheck, loaded) = configuration()
        let configuration = loaded?.configuration
        let vault = configuration?.vault ?? .automatic
        let folder = Self.vaultFolder(configuration.flatMap { Self.vaultFolder(for: $0, namesServer: loaded?.namesServer ?? false) }
                                      ?? XDGDirectories(environment: environment).stateHome.appendingPathComponent("rider"),
                                      vault: vault)
        let diagnosis = await SecretServiceDiagnosis.run(timeout: configuration?.keyringTimeout ?? .seconds(2))
        var checks = [configCheck]
        checks += Self.keyring(diagnosis, vault: vault, encryptedFileServes: folder.status != .fail,
                               busAddress: busAddress)
        checks.append(Self.kernelKeyring(configuration?.vaultUnlockRetention ?? .process,
                                         availability: VaultUnlockRetention.availability, vault: vault))
        checks.append(folder)
        let serverConfiguration = loaded.flatMap { $0.namesServer ? $0.configuration : nil }
        let unchecked = loaded == nil ? "the settings cannot be used (the config check)" : "no server is set"
        checks.append(Self.userCache(serverConfiguration, unchecked: unchecked))
        let server = await DoctorServerChecks.run(serverConfiguration, unchecked: unchecked)
        checks += server.checks
        checks.append(Self.loopback(configuration?.listenAddresses ?? [], deviceFlowServes: server.offersDeviceFlow))
        checks.append(Self.browser(environment: environment, deviceFlowServes: server.offersDeviceFlow))
        checks.append(Self.proxy(environment: environment))
        return checks
    }

    // MARK: The config file

    /// The configuration as RiderKit reads it, and whether it names a server (without one, a
    /// loopback placeholder stands in so the vault, cache and keyring settings are still read).
    struct Loaded: Sendable {
        let configuration: RiderKit.Configuration
        let namesServer: Bool
    }

    /// The config file's ownership and mode, then every setting, as RiderKit would refuse them.
    func configuration() -> (DoctorCheck, Loaded?) {
        let file = ConfigFileDocument.location(environment: environment)
        let described: String
        do {
            let document = try ConfigFileDocument(reading: file)
            var info = stat()
            if document.exists, stat(file.path, &info) == 0 {
                described = String(format: "%@ (mode %04o)", file.path, Int(info.st_mode & 0o7777))
            } else {
                described = "no config file at \(file.path); settings come from the environment and defaults"
            }
        } catch let error as ConfigError {
            return (.fail("config", error.localizedDescription, fix: "correct the JSON in \(file.path), or move it aside"), nil)
        } catch {
            let vaultError = (error as? RiderError)?.underlying as? VaultError
            return (.fail("config", Self.message(for: error),
                          fix: vaultError.flatMap { Self.fix(for: $0, strict: false) }
                            ?? "correct the file as the message says (rider config show lists its settings)"), nil)
        }
        do {
            let namesServer = try server != nil || issuer != nil || RiderKit.Configuration.namesServer(environment: environment)
            let configuration = try RiderKit.Configuration.load(environment: environment,
                                                                baseURL: namesServer ? server : "http://127.0.0.1",
                                                                issuer: issuer)
            guard namesServer else {
                return (.note("config", described + "; no server is set",
                              fix: "rider config set base_url URL (or issuer URL), or pass --server URL"),
                        Loaded(configuration: configuration, namesServer: false))
            }
            return (.ok("config", described + "; server \(configuration.api.origin)"),
                    Loaded(configuration: configuration, namesServer: true))
        } catch {
            return (.fail("config", Self.message(for: error),
                          fix: "rider config show lists every setting, where it comes from and what is wrong with it"), nil)
        }
    }

    // MARK: The keyring

    /// The session bus's address as D-Bus finds it: `DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`.
    var busAddress: String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
              FileManager.default.fileExists(atPath: runtime + "/bus") else { return nil }
        return "unix:path=\(runtime)/bus"
    }

    /// `dbus`, `secret-service` and `keyring-collection` from one diagnosis. An unusable keyring
    /// fails only when nothing else keeps the session: the vault setting is `secret-service`, or
    /// the encrypted file it would fall back to cannot be used either.
    static func keyring(_ diagnosis: SecretServiceDiagnosis, vault: VaultChoice, encryptedFileServes: Bool,
                        busAddress: String?) -> [DoctorCheck] {
        let unusable: DoctorCheck.Status = switch vault {
        case .secretService: .fail
        case .automatic: encryptedFileServes ? .note : .fail
        case .encryptedFile, .memory: .ok
        }
        let meanwhile = switch vault {
        case .automatic: "; until then the encrypted file keeps the session"
        case .secretService: "; or set vault to automatic or encrypted-file"
        default: ""
        }
        func problem(_ name: String, _ detail: String, fix: String) -> DoctorCheck {
            unusable == .ok
                ? .ok(name, detail + " (not used: the vault setting is \(vault.setting))")
                : DoctorCheck(name: name, status: unusable, detail: detail, fix: fix + meanwhile)
        }
        func skipped(_ name: String, after step: String) -> DoctorCheck {
            let detail = "not checked: \(step) is not there"
            return unusable == .ok ? .ok(name, detail) : .note(name, detail)
        }
        let bus = DoctorCheck.ok("dbus", "session bus at \(busAddress ?? "the address D-Bus found")")
        let service = DoctorCheck.ok("secret-service", "org.freedesktop.secrets answers on the session bus")
        let timeoutFix = "restart the keyring daemon (or unlock it where it shows a prompt), "
            + "or allow it longer: rider config set keyring_timeout 5"
        switch diagnosis {
        case .busUnavailable(let reason):
            return [problem("dbus", "no D-Bus session bus: \(reason)",
                            fix: "run rider in a desktop session, or start a bus: dbus-run-session -- $SHELL"),
                    skipped("secret-service", after: "the session bus"),
                    skipped("keyring-collection", after: "the session bus")]
        case .serviceUnavailable(let reason):
            return [bus,
                    problem("secret-service", "no Secret Service on the session bus: \(reason)",
                            fix: "start a keyring that serves org.freedesktop.secrets: "
                                + "gnome-keyring-daemon --start --components=secrets, or KeePassXC with "
                                + "Secret Service integration on"),
                    skipped("keyring-collection", after: "a Secret Service")]
        case .collectionUnavailable(let reason):
            return [bus, service,
                    problem("keyring-collection", "no usable default collection: \(reason)",
                            fix: "create a keyring (collection) in your keyring manager (Seahorse, KeePassXC) "
                                + "and make it the default")]
        case .collection(let label, let locked):
            guard locked else {
                return [bus, service, .ok("keyring-collection", "the default collection \"\(label)\" is unlocked")]
            }
            return [bus, service,
                    problem("keyring-collection", "the default collection \"\(label)\" is locked",
                            fix: "unlock it: log in to the desktop session, or unlock it in your keyring manager "
                                + "(Seahorse, KeePassXC)")]
        case .timedOut(let step, let after):
            let detail = "\(step.rawValue) did not answer within \(after)"
            switch step {
            case .bus:
                return [problem("dbus", detail, fix: "the session bus is stuck: log out and in again, or start a "
                                    + "fresh one: dbus-run-session -- $SHELL"), skipped("secret-service", after: "the session bus"),
                        skipped("keyring-collection", after: "the session bus")]
            case .service:
                return [bus, problem("secret-service", detail, fix: timeoutFix),
                        skipped("keyring-collection", after: "a Secret Service")]
            case .collection:
                return [bus, service, problem("keyring-collection", detail, fix: timeoutFix)]
            }
        }
    }

    /// Whether the encrypted file's unlock can outlast the process (the kernel keyring): only a
    /// note when not, since the passphrase is then asked for in each process.
    static func kernelKeyring(_ retention: VaultUnlockRetention, availability: KernelKeyringAvailability,
                              vault: VaultChoice) -> DoctorCheck {
        switch vault {
        case .secretService, .memory:
            return .ok("kernel-keyring", "not used: the vault setting is \(vault.setting)")
        case .automatic, .encryptedFile:
            break
        }
        guard retention.timeout != nil else {
            return .ok("kernel-keyring", "not used: vault_unlock_timeout is 0, so the encrypted file asks for "
                + "its passphrase in each process")
        }
        switch availability {
        case .available:
            return .ok("kernel-keyring", "keyctl works: the encrypted file stays unlocked \(retention) "
                + "after its passphrase is typed")
        case .unavailable(let reason):
            return .note("kernel-keyring", "\(reason); the encrypted file asks for its passphrase in each process",
                         fix: "allow keyctl (a container's seccomp profile refuses it), or give the passphrase "
                            + "in a 0600 file named by RIDER_VAULT_PASSPHRASE_FILE")
        }
    }

    // MARK: Files

    /// The folder the encrypted session files are kept in: a configured `file:` path's, else the
    /// server's state folder, else (no server) the state folder every server's sits in.
    static func vaultFolder(for configuration: RiderKit.Configuration, namesServer: Bool) -> URL? {
        switch configuration.vault {
        case .memory:
            return nil
        case .encryptedFile(let file?):
            return file.deletingLastPathComponent()
        case .automatic, .secretService, .encryptedFile(nil):
            guard namesServer else { return configuration.directories.stateHome.appendingPathComponent("rider") }
            return configuration.directories.stateFolder(forOrigin: configuration.api.origin)
        }
    }

    /// The vault folder and its session files, by the vault's own rules: a folder others may
    /// write, or a file others may read, is refused (the encrypted file then cannot be used).
    static func vaultFolder(_ folder: URL?, vault: VaultChoice) -> DoctorCheck {
        guard let folder else { return .ok("vault-folder", "not used: the vault setting is \(vault.setting)") }
        do {
            let found = try StorageDiagnosis.vaultFolder(folder)
            guard found.exists else {
                return .ok("vault-folder", "\(folder.path) does not exist yet (it is made 0700 on the first sign-in); "
                    + "\(found.examined) above it is fine")
            }
            let files = found.files.isEmpty ? "no session file yet"
                : "\(found.files.count) session \(found.files.count == 1 ? "file" : "files"), none readable by others"
            return .ok("vault-folder", String(format: "%@ (mode %04o): %@", found.examined, found.mode, files))
        } catch {
            return .fail("vault-folder", error.message, fix: fix(for: error, strict: true))
        }
    }

    /// The server's user cache files, by their headers alone (no SQLite, nothing changed): one
    /// that is not a database, or of a newer schema, is moved aside when next opened, so a note.
    static func userCache(_ configuration: RiderKit.Configuration?, unchecked: String = "no server is set") -> DoctorCheck {
        guard let configuration else { return .ok("user-cache", "not checked: \(unchecked)") }
        let file: URL
        switch configuration.cache.storage {
        case .memory:
            return .ok("user-cache", "in memory (the cache setting): nothing on disk")
        case .sqlite(let configured):
            file = configured.map { CacheConfiguration.file(named: $0, forOrigin: configuration.api.origin) }
                ?? SQLiteUserCache.defaultFile(forOrigin: configuration.api.origin, in: configuration.directories)
        }
        let folder = file.deletingLastPathComponent()
        let stem = file.deletingPathExtension().lastPathComponent
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasPrefix(stem) && $0.hasSuffix(".sqlite") }.sorted()
        guard !names.isEmpty else {
            return .ok("user-cache", "no cache file yet in \(folder.path) (one is made on first use)")
        }
        var unusable: [String] = []
        var newer: [String] = []
        for name in names {
            switch StorageDiagnosis.cacheFile(folder.appendingPathComponent(name)) {
            case .missing: break
            case .notADatabase: unusable.append(name)
            case .database(let version, let current) where version > current: newer.append(name)
            case .database: break
            }
        }
        if unusable.isEmpty, newer.isEmpty {
            return .ok("user-cache", "\(names.count) cache \(names.count == 1 ? "file" : "files") in \(folder.path), "
                + "SQLite with a schema this rider reads")
        }
        var problems: [String] = []
        if !unusable.isEmpty { problems.append("\(unusable.joined(separator: ", ")) is not an SQLite database") }
        if !newer.isEmpty { problems.append("\(newer.joined(separator: ", ")) has a newer rider's schema") }
        return .note("user-cache", "in \(folder.path): " + problems.joined(separator: "; ")
                        + "; it is moved aside and started afresh when next opened",
                     fix: "rider cache check (moves a damaged file aside now), or use the newer rider")
    }

    /// What a person reads for `error`, with rider's advice.
    static func message(for error: any Error) -> String {
        switch error {
        case let error as RiderError: ErrorAdvice.message(for: error)
        case let error as VaultError: ErrorAdvice.message(for: error.riderError)
        default: error.localizedDescription
        }
    }

    /// The command that makes a refused file or folder acceptable.
    /// - Parameter strict: whether the file and its folder are private (the vault's: `chmod 600`,
    ///   `chmod 700`), rather than a settings file others may read (`chmod go-w`).
    static func fix(for error: VaultError, strict: Bool) -> String? {
        switch error {
        case .permissionsTooOpen(let path, let mode):
            guard path.hasSuffix("/") else { return strict ? "chmod 600 \(path)" : "chmod go-w \(path)" }
            if mode & 0o1000 != 0 { return "use a folder of your own inside it: mkdir -m 700 \(path)rider" }
            return strict ? "chmod 700 \(path)" : "chmod go-w \(path)"
        case .notOwned(let path, _, let user):
            return "chown \(user) \(path) (if you trust its contents), or choose a path of your own"
        default:
            return nil
        }
    }

    // MARK: Sign-in on this machine

    /// Whether `login --web` can listen: each configured `listen` address, or a port of the
    /// system's choosing on 127.0.0.1. Bound and closed at once.
    static func loopback(_ addresses: [LoopbackListenAddress], deviceFlowServes: Bool) -> DoctorCheck {
        let wanted = addresses.isEmpty ? [LoopbackListenAddress.ephemeral] : addresses
        var refused: [String] = []
        for address in wanted {
            if let reason = bindFails(address) {
                refused.append("\(address): \(reason)")
                continue
            }
            let which = address.port == 0 ? "a port on \(address.host)" : "\(address)"
            let skipped = refused.isEmpty ? "" : " (\(refused.joined(separator: "; ")))"
            return .ok("loopback", "\(which) can be bound for a browser sign-in's redirect\(skipped)")
        }
        let detail = "no loopback address can be bound: " + refused.joined(separator: "; ")
        let fix = addresses.isEmpty ? "check that the loopback interface is up (ip link set lo up)"
            : "free the port, or list another: rider config set listen '127.0.0.1:PORT [::1]:PORT'"
        return deviceFlowServes ? .note("loopback", detail, fix: fix + "; meanwhile rider login --device signs in")
            : .fail("loopback", detail, fix: fix)
    }

    /// Why `address` cannot be bound, or `nil` when it can (then it is closed again).
    private static func bindFails(_ address: LoopbackListenAddress) -> String? {
        let isV6 = address.host.contains(":")
        let socket = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return String(cString: strerror(errno)) }
        defer { close(socket) }
        let port = UInt16(truncatingIfNeeded: address.port).bigEndian
        let result: Int32
        if isV6 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port
            socketAddress.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port
            socketAddress.sin_addr.s_addr = inet_addr("127.0.0.1")
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return result == 0 ? nil : String(cString: strerror(errno))
    }

    /// Whether a browser would be opened (`$BROWSER`, else `xdg-open` in a graphical session);
    /// none is opened here. Without one, the address is pasted back or a device code is used,
    /// so this is a note.
    static func browser(environment: [String: String], deviceFlowServes: Bool) -> DoctorCheck {
        if SystemBrowserOpener(environment: environment).canOpenPages {
            let browser = environment["BROWSER"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            return .ok("browser", browser.map { "pages open with $BROWSER (\($0))" }
                            ?? "pages open with xdg-open in the graphical session")
        }
        let instead = deviceFlowServes ? "rider login --device, or rider login --web --no-browser and paste the address back"
            : "rider login --web --no-browser, and paste the address your browser ends on back"
        return .note("browser", "no browser can be opened here (no $BROWSER, and no graphical session with xdg-open)",
                     fix: "set BROWSER to a browser command, or sign in with " + instead)
    }

    // MARK: Proxies

    /// The proxy variables in effect, by name and host only: a proxy URL may carry a password.
    static func proxy(environment: [String: String]) -> DoctorCheck {
        let read = ["https_proxy", "HTTPS_PROXY", "http_proxy", "all_proxy", "ALL_PROXY"]
        var found: [String] = []
        for name in read {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { continue }
            let alone = ProxyEnvironment(environment: ["all_proxy": value])
            found.append(alone.problem == nil ? "\(name): \(alone.https)" : "\(name): not a proxy address")
        }
        for name in ["no_proxy", "NO_PROXY"] {
            guard let value = environment[name], !value.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let hosts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            found.append("\(name): \(hosts.joined(separator: " "))")
        }
        let ignored = (environment["HTTP_PROXY"] ?? "").isEmpty ? ""
            : "; HTTP_PROXY is ignored (as curl ignores it: a CGI request's Proxy header sets it), use http_proxy"
        if let problem = ProxyEnvironment(environment: environment).problem {
            return .fail("proxy", problem, fix: "correct it (http://host:port or socks5://host:port) or unset it")
        }
        guard !found.isEmpty else { return .ok("proxy", "no proxy variable is set: requests go direct" + ignored) }
        return .ok("proxy", found.joined(separator: "; ") + "; loopback is never proxied" + ignored)
    }
}

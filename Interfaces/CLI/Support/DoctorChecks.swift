import Foundation
import RiderApplication
import RiderInfrastructure
import RiderKit
#if canImport(Glibc)
import Glibc
// As in AvatarFile.swift: `stat` comes through CoreFoundation in the --static-swift-stdlib build.
import CoreFoundation
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
}

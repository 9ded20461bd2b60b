import Foundation
import RiderInfrastructure
import RiderKit

/// The keyring checks of `rider doctor`: the session bus, the Secret Service, its default
/// collection, and the kernel keyring that keeps the encrypted file unlocked between processes.
extension DoctorChecks {
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
}

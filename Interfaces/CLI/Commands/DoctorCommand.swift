import ArgumentParser
import Foundation
import RiderKit

/// `rider doctor`: checks everything sign-in and the session depend on, in order, and says how
/// to fix what is wrong.
struct DoctorCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the configuration, keyring, vault, cache, server, clock, browser and proxies.",
        discussion: """
            Checks, in order, and prints one line for each (ok, note or fail), with the fix \
            under a note or a failure:
              config              the config file, its owner and mode, and every setting
              dbus                the D-Bus session bus
              secret-service      a Secret Service (keyring) on that bus
              keyring-collection  its default collection, and whether it is locked
              kernel-keyring      whether the encrypted file's unlock can outlast a process
              vault-folder        the encrypted session files' folder (0700) and files (0600)
              user-cache          the user cache files' headers (SQLite, a schema rider reads)
              server              the server (or issuer) answers, through any proxy
              tls                 its certificate is trusted
              metadata            the issuer's metadata, checked as a sign-in checks it
              grants              the grant types it offers, and which sign-ins they allow
              clock               this machine's clock against the server's Date header
              loopback            a loopback port can be bound for a browser sign-in
              browser             a browser would be opened (none is)
              proxy               the proxy variables in effect (names and hosts only)

            The keyring checks end at the keyring timeout (keyring_timeout, 2 s): a stuck \
            keyring never hangs the command. Nothing is changed, no passphrase is asked for, no \
            session is read and no browser is opened. A missing keyring while the encrypted \
            file serves, or no browser while a device code or a pasted address serves, is a \
            note, not a failure.

            With --json: {"checks": [{"name", "status": "ok"|"note"|"fail", "detail", \
            "fix"}], "healthy"}.

            Exit status: 0 when nothing fails, 1 when a check fails.

            Examples:
              rider doctor
              rider --issuer https://id.example.com doctor
              rider doctor --json | jq -r '.checks[] | select(.status != "ok") | .name'
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let checks = await DoctorChecks(environment: ProcessInfo.processInfo.environment,
                                        server: global.server, issuer: global.issuer).run()
        let output = DoctorOutput(checks)
        if global.json {
            guard let text = JSONOutput.string(output) else {
                throw RiderError.malformedResponse("the result cannot be written as JSON")
            }
            Console.standardOutput(json: text)
        } else {
            Console.standardOutput(lines: output.lines)
        }
        if !output.healthy {
            await OpenRiders.shared.closeAll()
            Foundation.exit(ExitStatus.failure.rawValue)
        }
    }
}

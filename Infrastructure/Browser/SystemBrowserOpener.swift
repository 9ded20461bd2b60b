import Foundation
import RiderDomain

/// Opens pages the way Linux command-line tools do: `$BROWSER` when it is set, run with the
/// address as its one argument (as `xdg-open` and `gh` do), else `xdg-open` when a graphical
/// session is there to show it; otherwise nothing, and the caller prints the address.
///
/// The address is handed over as an argument, never spliced into a shell command, so a hostile
/// address cannot run anything; only http(s) addresses are opened at all. The browser starts
/// without any `RIDER_*` variable: it may run long after the sign-in, and has no use for the vault
/// passphrase, the client secret or anything else rider was configured with.
///
/// The browser half of ``LoopbackBrowserUserAgent``.
package struct SystemBrowserOpener: Sendable {
    private let environment: [String: String]

    /// - Parameter environment: where `BROWSER`, `DISPLAY`, `WAYLAND_DISPLAY` and `PATH` are read.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// Asks for `url` to be shown.
    /// - Returns: whether a browser was started; `false` without `BROWSER` and without a
    ///   graphical session or `xdg-open`, and for an address that is not http(s).
    /// - Throws: `RiderError.invalidConfiguration(_:)` when `BROWSER` is set but cannot be started.
    package func open(_ url: URL) async throws -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else { return false }
        if let browser = environment["BROWSER"], !browser.trimmingCharacters(in: .whitespaces).isEmpty {
            // `$BROWSER` may name a program with options ("firefox --new-window"): the shell splits
            // it, and the address arrives as "$1", one argument, unexpanded.
            do {
                try launch("/bin/sh", ["-c", browser + " \"$1\"", "sh", url.absoluteString])
            } catch {
                throw RiderError.invalidConfiguration("BROWSER (\(browser)) cannot be started", underlying: error)
            }
            return true
        }
        guard let xdgOpen = graphicalOpener else { return false }
        return (try? launch(xdgOpen, [url.absoluteString])) != nil
    }

    /// Whether a page would be shown: `BROWSER` is set, or a graphical session has `xdg-open`.
    /// `rider login` picks the browser sign-in over the device code by it.
    package var canOpenPages: Bool {
        !(environment["BROWSER"] ?? "").trimmingCharacters(in: .whitespaces).isEmpty || graphicalOpener != nil
    }

    /// `xdg-open`, when a graphical session is there for it to show a page in.
    private var graphicalOpener: String? {
        let graphical = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        return graphical ? executable(named: "xdg-open") : nil
    }

    /// Starts the browser without waiting for it: a terminal browser could run until the person
    /// quits it, and the sign-in goes on meanwhile. Foundation reaps it when it exits.
    private func launch(_ path: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = Self.browserEnvironment(environment)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// `environment` without rider's own variables. Every `RIDER_*` goes, not only the ones
    /// known to hold secrets today (`RIDER_VAULT_PASSPHRASE`, `RIDER_CLIENT_SECRET`): none of them
    /// means anything to a browser, and a secret added later is then left out without a thought.
    private static func browserEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.filter { !$0.key.hasPrefix("RIDER_") }
    }

    private func executable(named name: String) -> String? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

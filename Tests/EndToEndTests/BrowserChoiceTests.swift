import Foundation
import RiderReferenceServer
import Testing
import TestSupport

/// Where `rider login` opens pages (#33 item 3): `--verbose` names the choice, and when none
/// applies a line says why. Each run gives up after one second without an answer (exit 3).
@Suite("rider CLI: the browser choice")
struct BrowserChoiceTests {
    @Test("--verbose reports $BROWSER, or xdg-open in a graphical session; with neither, a line says why",
          arguments: ["BROWSER", "xdg-open", "none"])
    func reportsTheChoice(case choice: String) async throws {
        try await withSandboxedReferenceServer(DeviceSignInTests.configuration) { server, sandbox in
            var (environment, _) = try BrowserSignInTests.environment(server, sandbox)
            let bin = sandbox.root.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let xdgOpen = bin.appendingPathComponent("xdg-open")
            try UninheritedFiles.writeExecutable("#!/bin/sh\nexit 0\n", to: xdgOpen)
            if choice != "BROWSER" { environment["BROWSER"] = "" }
            if choice == "xdg-open" {
                environment["PATH"] = bin.path + ":/usr/bin:/bin"
                environment["DISPLAY"] = ":0"
            }
            let run = try await sandbox.rider(["login", "--web", "--timeout", "1"] + (choice == "none" ? [] : ["--verbose"]),
                                              environment: environment)
            #expect(run.status == 3, "\(run)")
            switch choice {
            case "BROWSER":
                #expect(run.stderr.contains("rider: pages open with $BROWSER ("), "\(run)")
            case "xdg-open":
                #expect(run.stderr.contains("rider: pages open with \(xdgOpen.path) (a graphical session: DISPLAY is set)"),
                        "\(run)")
            default:
                #expect(run.stderr.contains("rider: no browser can be opened here: no graphical session"), "\(run)")
            }
        }
    }
}

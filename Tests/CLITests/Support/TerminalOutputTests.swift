import ArgumentParser
import Foundation
@testable import RiderCLI
import RiderKit
import Testing

@Suite("CLI TerminalOutput: tables and colour")
struct TerminalOutputTests {
    @Test("on a terminal with --color auto: a table, styled")
    func terminalGetsStyledTable() {
        let output = TerminalOutput(color: .auto, isTerminal: true, environment: ["TERM": "xterm-256color"])
        #expect(output.usesTables)
        #expect(output.style == .ansi)
    }

    @Test("piped with --color auto: plain lines, no table and no escapes, whatever TERM says")
    func pipedIsPlain() {
        let output = TerminalOutput(color: .auto, isTerminal: false, environment: ["TERM": "xterm-256color"])
        #expect(!output.usesTables)
        #expect(output.style == .plain)
    }

    @Test("NO_COLOR set to anything (not empty) or TERM=dumb keeps the table but drops the colour")
    func noColorAndDumbTerminal() {
        for environment in [["NO_COLOR": "1"], ["NO_COLOR": "yes", "TERM": "xterm"], ["TERM": "dumb"]] {
            let output = TerminalOutput(color: .auto, isTerminal: true, environment: environment)
            #expect(output.usesTables, "\(environment)")
            #expect(output.style == .plain, "\(environment)")
        }
        let empty = TerminalOutput(color: .auto, isTerminal: true, environment: ["NO_COLOR": ""])
        #expect(empty.style == .ansi, "an empty NO_COLOR does not count (no-color.org)")
    }

    @Test("--color always styles even when piped (for less -R); --color never never does")
    func explicitFlagWins() {
        let always = TerminalOutput(color: .always, isTerminal: false, environment: ["NO_COLOR": "1", "TERM": "dumb"])
        #expect(always.usesTables && always.style == .ansi)
        let never = TerminalOutput(color: .never, isTerminal: true, environment: [:])
        #expect(never.usesTables && never.style == .plain)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How human-readable output is laid out on stdout: a table with a header row for a person at a
/// terminal, the stable plain lines for scripts, with colour only where it is wanted.
struct TerminalOutput: Sendable, Equatable {
    /// Tables with a header row (a terminal, or `--color always`); otherwise plain lines.
    let usesTables: Bool
    /// Bold and dim, or nothing.
    let style: TextStyle

    /// - Parameters:
    ///   - color: `--color`; `always` and `never` win over everything else.
    ///   - isTerminal: whether stdout is a terminal; asks the system unless told.
    ///   - environment: read for `NO_COLOR` (https://no-color.org: set and not empty) and `TERM=dumb`.
    init(color: ColorMode, isTerminal: Bool = isatty(STDOUT_FILENO) == 1,
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        usesTables = isTerminal || color == .always
        switch color {
        case .always:
            style = .ansi
        case .never:
            style = .plain
        case .auto:
            let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
            style = isTerminal && !noColor && environment["TERM"] != "dumb" ? .ansi : .plain
        }
    }
}

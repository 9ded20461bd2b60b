import ArgumentParser
import Foundation
import RiderKit

/// Prints an error the way `rider` promises — one sentence on stderr, or a JSON object with
/// `--json` — and picks its exit code.
struct ErrorReport: Sendable {
    let json: Bool

    /// - Returns: the exit code for `error`.
    func report(_ error: any Error) -> Int32 {
        switch error {
        case let error as RiderError:
            return report(error)
        case let error as VaultError:
            return report(error.riderError)
        case let error as ConfigError:
            emit(ErrorOutput(code: error.code, message: error.localizedDescription))
            return error.exitStatus.rawValue
        case let error as CLIError:
            emit(ErrorOutput(code: "usage", message: error.localizedDescription))
            return ExitStatus.usage.rawValue
        case is CancellationError:
            emit(ErrorOutput(code: "cancelled", message: "Cancelled."))
            return ExitStatus.failure.rawValue
        default:
            return reportArgumentParser(error)
        }
    }

    private func report(_ error: RiderError) -> Int32 {
        let code = error.code.description
        // The library says what is wrong; `rider` adds which of its commands or settings helps.
        let message = ErrorAdvice.message(for: error)
        switch error.code {
        case .invalidInput:
            emit(ErrorOutput(code: code, message: message, fields: error.fieldProblems.map(FieldProblemOutput.init)))
        case .invalidAvatar:
            // Also as a field, so scripts that read `fields` for rejected input find it there.
            emit(ErrorOutput(code: code, message: message,
                             fields: error.avatarProblem.map { [FieldProblemOutput(FieldProblem(field: "avatar", message: $0.message))] }))
        case .conflict:
            emit(ErrorOutput(code: code, message: message, current: error.current.map(RiderOutput.init)))
            if !json, let current = error.current {
                Console.standardError("Current profile on the server:")
                for line in RiderOutput(current).lines { Console.standardError("  " + line) }
            }
        default:
            emit(ErrorOutput(code: code, message: message))
        }
        return ExitStatus(error).rawValue
    }

    /// Help requests go to stdout with exit 0; usage errors to stderr with exit 2.
    private func reportArgumentParser(_ error: any Error) -> Int32 {
        let status = RiderCommand.exitCode(for: error)
        if status.isSuccess {
            let text = RiderCommand.fullMessage(for: error)
            if !text.isEmpty { Console.standardOutput(text) }
            return ExitStatus.success.rawValue
        }
        guard status == .validationFailure else {
            emit(ErrorOutput(code: "other", message: RiderCommand.message(for: error)))
            return ExitStatus.failure.rawValue
        }
        if json {
            emit(ErrorOutput(code: "usage", message: RiderCommand.message(for: error)))
        } else {
            // ArgumentParser's text starts with "Error: …" and goes on with the usage line.
            var text = RiderCommand.fullMessage(for: error)
            if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
            Console.standardError("rider: error: " + text)
        }
        return ExitStatus.usage.rawValue
    }

    private func emit(_ output: ErrorOutput) {
        guard json else {
            // Escaped as one field: a problem detail from the server is quoted in the message,
            // and a line break in it must not forge a second `rider: error:` line.
            Console.standardError("rider: error: " + output.message.terminalSafe)
            return
        }
        Console.standardError(json: JSONOutput.string(output) ?? #"{"error":{"code":"other","message":"unprintable error"}}"#)
    }
}

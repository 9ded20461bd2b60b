import Foundation
import RiderKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rider login --with-token`: an access token given by hand, kept as the server's session.
extension LoginCommand {
    /// Reads the token from standard input — the first line of a pipe, or typed without echo on a
    /// terminal; never from the command line, where every user can read it — and keeps it as the
    /// session once the server says whose it is. It is never renewed.
    func signInWithToken(_ context: CommandContext) async throws {
        let text: String?
        if isatty(STDIN_FILENO) == 1 {
            text = try TerminalInput.readLine(prompt: "Access token: ", echo: false, hint: "pipe the token in")
        } else {
            text = try LineInput.readLine(from: STDIN_FILENO)
        }
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw CLIError.usage("--with-token was given but standard input holds no token; pipe it in, e.g. "
                + "`rider login --with-token < token.txt`.")
        }
        let session = try await context.rider.signIn(withAccessToken: try GivenAccessToken(text, source: "--with-token"))
        var email = session.identity?.email
        if email == nil { email = (try? await context.rider.currentUser())?.value.email }
        let output = LoginOutput(server: context.server, issuer: context.issuer, email: email ?? session.userID.rawValue,
                                 session: session)
        let others = await Self.activate(session, context)
        try context.print(json: output, lines: [output.line + " (a token given by hand: never renewed)"] + others)
    }

    /// `rider login --client-credentials`: the client signs in as itself with its secret or key;
    /// the session has no refresh token and is renewed by asking again.
    func signInAsClient(_ context: CommandContext) async throws {
        let session = try await context.rider.signIn(.clientCredentials)
        let name = session.identity?.name ?? session.userID.rawValue
        let output = LoginOutput(server: context.server, issuer: context.issuer, email: name, session: session)
        let others = await Self.activate(session, context)
        try context.print(json: output, lines: [output.line + " (the client itself: renewed by asking again)"] + others)
    }
}

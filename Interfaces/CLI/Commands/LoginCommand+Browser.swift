import Foundation
import RiderInfrastructure
import RiderKit

extension LoginCommand {
    /// Says how pages open here: with `--verbose` whatever the choice, and always when none can
    /// be opened (unless `--no-browser` asked for none), with the reason, so the printed address
    /// is not a mystery.
    func tellBrowser(_ choice: SystemBrowserOpener.Choice) {
        if case .none(let why) = choice {
            guard global.verbose || !noBrowser else { return }
            Notice.notice("no browser can be opened here: \(why).".terminalSafe, prefix: "rider: ", json: global.json)
        } else if global.verbose {
            Notice.notice("pages open with \(choice).".terminalSafe, prefix: "rider: ", json: global.json)
        }
    }

    /// Where to sign in, on standard error: sentences, or with `--json` one `sign_in` object.
    static func tell(_ prompt: SignInWithBrowser.Prompt, pastes: Bool, timeout: TimeInterval, json: Bool) {
        // A browser on the person's own machine cannot reach this one's loopback.
        let overSSH = !prompt.openedInBrowser && !pastes
            && ProcessInfo.processInfo.environment.keys.contains { $0 == "SSH_CONNECTION" || $0 == "SSH_TTY" }
        let sshHint = "This is an SSH session: to sign in from a browser on another machine, run `rider login --web` "
            + "with standard input on the terminal and paste the browser's last address back, or use `rider login --device`."
        if json {
            Notice.signIn(SignInPromptOutput(web: prompt.url, openedInBrowser: prompt.openedInBrowser,
                                             pastes: pastes, timeout: timeout))
            if overSSH { Notice.notice(sshHint, json: json) }
            return
        }
        let page = prompt.url.absoluteString.terminalSafe
        if prompt.openedInBrowser {
            Console.standardError("The sign-in page was opened in your browser. If it did not open, open this address on "
                + "this machine (it works once):\n  \(page)")
        } else if pastes {
            Console.standardError("To sign in, open this address in a browser, on this machine or any other:\n  \(page)")
            Console.standardError("When the browser ends on an address starting with http://127.0.0.1 or http://[::1] "
                + "that it cannot load, copy that whole address and paste it here, then press Enter.")
        } else {
            Console.standardError("To sign in, open this address in a browser on this machine (it works once):\n  \(page)")
            if overSSH { Console.standardError(sshHint) }
        }
        Console.standardError("Waiting for the sign-in in the browser (up to \(Int(timeout)) s; Ctrl-C to give up)…")
    }
}

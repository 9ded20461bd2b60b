import RiderInfrastructure
import RiderKit

extension LoginCommand {
    /// Says how pages open here: with `--verbose` whatever the choice, and always when none can
    /// be opened (unless `--no-browser` asked for none), with the reason, so the printed address
    /// is not a mystery.
    func tellBrowser(_ choice: SystemBrowserOpener.Choice) {
        if case .none(let why) = choice {
            guard global.verbose || !noBrowser else { return }
            SignInNotice.notice("no browser can be opened here: \(why).".terminalSafe, prefix: "rider: ", json: global.json)
        } else if global.verbose {
            SignInNotice.notice("pages open with \(choice).".terminalSafe, prefix: "rider: ", json: global.json)
        }
    }
}

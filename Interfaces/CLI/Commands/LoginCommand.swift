import ArgumentParser
import Foundation
import RiderApplication
import RiderInfrastructure
import RiderKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rider login`: signs in and keeps the session on this machine.
struct LoginCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in and keep the session on this machine.",
        discussion: """
            Asks for the password on the terminal without echo, or reads the first line of \
            standard input with --password-stdin. There is deliberately no option that takes the \
            password itself: it would show up in the process list and your shell history.

            The session is renewed automatically while it can be; `rider session show` tells \
            where it is kept and until when it is valid.

            With --web (for providers that offer it; set the issuer and client_id), rider \
            opens the provider's sign-in page in a browser and waits for it to send the browser \
            back to http://127.0.0.1:<port>/callback (the authorization code flow with PKCE, \
            RFC 8252): sign in there. The browser is given a one-time address on that port, \
            which sends it on to the provider's page, so the request's secrets are in no \
            command line; the address is printed too, for a browser opened by hand on this \
            machine. Only the provider's answer to this sign-in ends the wait; rider gives up \
            after --timeout seconds or on Ctrl-C, storing nothing.

            Where no browser can be opened here (over SSH, in a container, or with \
            --no-browser) and standard input is a terminal, rider prints the provider's page \
            itself: open it in a browser on any machine and sign in. That browser then tries \
            to load http://127.0.0.1:<port>/callback?code=...&state=..., which it cannot \
            reach from another machine: copy that whole address from its address bar and \
            paste it at rider's prompt (or only its code=...&state=... part). The pasted \
            answer is checked as the browser's return would be, and the browser's return \
            still wins if it arrives.

            A provider that compares redirect URIs exactly, port included, needs the port it \
            has registered: --listen 127.0.0.1:8400 (repeatable; [::1]:8400 too) listens \
            there, moving to the next --listen address when one is busy, and fails when none \
            is free.

            With --device (RFC 8628, for providers that offer it; set the issuer), rider shows \
            a page and a short code: approve the sign-in there, on any device, and rider \
            stores the session.

            Neither passes a password through rider, and neither needs a terminal. Pages open \
            in $BROWSER when it is set, else inside WSL in the Windows browser (wslview or \
            explorer.exe), else with xdg-open in a graphical session (--verbose says which); \
            --no-browser only prints them. Without --email, --web or --device, rider signs in \
            the way the provider's metadata offers: in the browser when a browser can be \
            opened or standard input is a terminal to paste its answer on (and client_id is \
            set), else with a device code, else with a password.

            Examples:
              rider login --email demo@example.com
              printf '%s\\n' "$PASSWORD" |
                rider login --email demo@example.com --password-stdin
              rider login --web
              rider login --device
              rider login --web --no-browser
              rider login --web --listen 127.0.0.1:8400 --listen '[::1]:8400'
              rider login --with-token < token.txt
              RIDER_CLIENT_ID=ci-job RIDER_CLIENT_KEY_FILE=$HOME/.config/rider/ci-job.pem \\
                rider login --client-credentials

            With --with-token (for jobs), rider reads an access token from standard input, \
            never from the command line, and keeps it as the session of the server: it is \
            never renewed, and ends when the server refuses it. To use a token without \
            storing it, set RIDER_TOKEN instead.

            With --client-credentials (for jobs and services that act for no person), the \
            client signs in as itself (RFC 6749 client credentials): client_id with \
            client_secret or with client_key_file (private_key_jwt, RFC 7523). The session \
            has no refresh token; rider asks for new tokens the same way when they expire.
            """
    )

    @Option(help: ArgumentHelp("The account's email address; asked on the terminal when left out.",
                               valueName: "address"))
    var email: String?

    @Flag(help: "Read the password from the first line of standard input instead of asking for it.")
    var passwordStdin = false

    @Flag(help: "Sign in by approving a code on another device (RFC 8628) instead of with a password.")
    var device = false

    @Flag(help: "Sign in on the provider's page in a browser (authorization code with PKCE) instead of with a password.")
    var web = false

    @Flag(help: "With --web or --device: print the page to open, without opening a browser.")
    var noBrowser = false

    @Option(help: ArgumentHelp("With --web: give up after this many seconds without an answer from the browser "
                               + "(default: \(Int(SignInWithBrowser.defaultTimeout))).", valueName: "seconds"))
    var timeout: Int?

    @Option(help: ArgumentHelp("With --web: the path of the redirect URI registered with the provider "
                               + "(default: \(SignInWithBrowser.defaultRedirectPath)).", valueName: "path"))
    var redirectPath: String?

    @Option(help: ArgumentHelp("With --web: listen for the browser's return on this address instead of a port the "
                               + "system picks, for a provider that registered it (repeatable: tried in order, a busy "
                               + "one skipped).", valueName: "address:port"))
    var listen: [String] = []

    @Flag(help: "Read an access token from standard input and keep it as the session (never renewed).")
    var withToken = false

    @Flag(name: .customLong("client-credentials"),
          help: "Sign in as the client itself (RFC 6749 client credentials), for a job that acts for no person: needs client_id with client_secret or client_key_file. Renewed by asking again.")
    var clientCredentials = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        if clientCredentials, withToken || web || device || noBrowser || email != nil || passwordStdin || timeout != nil
            || redirectPath != nil || !listen.isEmpty {
            throw ValidationError("--client-credentials signs the client in with its own secret or key: leave out the "
                + "other sign-in options")
        }
        if withToken, web || device || noBrowser || email != nil || passwordStdin || timeout != nil
            || redirectPath != nil || !listen.isEmpty {
            throw ValidationError("--with-token reads an access token from standard input: leave out the other sign-in options")
        }
        if web, device { throw ValidationError("choose one of --web and --device") }
        if web || device, email != nil || passwordStdin {
            throw ValidationError("--\(web ? "web" : "device") signs in without a password: leave out --email and "
                + "--password-stdin")
        }
        if noBrowser, !web, !device { throw ValidationError("--no-browser goes with --web or --device") }
        if timeout != nil || redirectPath != nil, !web {
            throw ValidationError("--\(timeout != nil ? "timeout" : "redirect-path") goes with --web")
        }
        if let timeout, !(1...86_400).contains(timeout) { throw ValidationError("--timeout must be 1 to 86400 seconds") }
        if !listen.isEmpty, device || email != nil || passwordStdin { throw ValidationError("--listen goes with --web") }
        for address in listen {
            do {
                _ = try LoopbackListenAddress(parsing: address)
            } catch let error as RiderError {
                throw ValidationError("--listen: " + error.message)
            }
        }
    }

    func run() async throws {
        // Configuration first, so a missing server is reported before anyone types a password.
        try CommandContext.refuseGivenToken(to: "log in")
        // --listen wins over the `listen` setting everywhere it counts, a registration's redirect
        // URIs included (a provider that compares ports refuses any other).
        var environment = ProcessInfo.processInfo.environment
        if !listen.isEmpty { environment["RIDER_LISTEN"] = listen.joined(separator: " ") }
        let context = try CommandContext(global, environment: environment)
        if withToken { return try await signInWithToken(context) }
        if clientCredentials { return try await signInAsClient(context) }
        if web { return try await signInWithBrowser(context) }
        if device { return try await signInWithDeviceCode(context) }
        if email == nil, !passwordStdin, let (flow, passwordOffered) = try await standardFlow(context) {
            let why = passwordOffered ? "(pass --email to sign in with a password instead)"
                : "(the provider does not offer sign-in with a password)"
            switch flow {
            case .browser:
                Notice.notice("Signing in with the browser \(why).", json: global.json)
                return try await signInWithBrowser(context)
            case .device:
                Notice.notice("Signing in with a device code \(why).", json: global.json)
                return try await signInWithDeviceCode(context)
            }
        }
        let email = try email ?? TerminalInput.readLine(prompt: "Email: ", echo: true, hint: "pass --email")
        let password = try PasswordInput.read(fromStandardInput: passwordStdin)
        let session: Session
        do {
            session = try await context.rider.login(Credentials(email: email, password: password))
        } catch let error as RiderError {
            throw await Self.advisingWhatStarts(error, context)
        }
        let output = LoginOutput(server: context.server, issuer: context.issuer, email: email, session: session)
        let others = await Self.activate(session, context)
        try context.print(json: output, lines: [output.line] + others)
    }

    /// Makes the account just signed in the server's active one (a new account already is; one
    /// signed in again becomes it too, as `gh auth login` does).
    /// - Returns: a line naming the other accounts, when there are any.
    static func activate(_ session: Session, _ context: CommandContext) async -> [String] {
        let accounts = context.rider.accounts
        try? await accounts.activate(session.userID)
        let others = ((try? await accounts.list()) ?? []).filter { $0.id != session.userID }
        guard !others.isEmpty else { return [] }
        return ["It is now the active account on this server; also signed in here: "
            + others.map(\.displayName).joined(separator: ", ") + " (`rider session list`, `rider session switch`)."]
    }

    /// Opens the provider's page and waits on the loopback redirect; the one-time address that
    /// leads to the page goes to standard error whatever happens, so a person can open it by hand
    /// (the provider's own address, with the request's state, is printed nowhere).
    ///
    /// Where no browser can be opened here and standard input is a terminal, the person may be
    /// on another machine: the provider's page itself is printed, and a pasted answer is taken
    /// as well as the redirect (``PastedRedirectUserAgent``).
    private func signInWithBrowser(_ context: CommandContext) async throws {
        let rider = context.rider
        let timeout = timeout.map(TimeInterval.init) ?? SignInWithBrowser.defaultTimeout
        let (redirectPath, opensBrowser) = (redirectPath ?? SignInWithBrowser.defaultRedirectPath, !noBrowser)
        // --listen wins over the `listen` setting, as every flag wins over the file.
        let addresses = listen.isEmpty ? context.configuration.listenAddresses
            : try listen.map(LoopbackListenAddress.init(parsing:))
        let json = global.json
        let loopback = LoopbackBrowserUserAgent(listeningOn: addresses,
                                                onSkipped: { Notice.notice($0 + ".", prefix: "rider: ", json: json) })
        tellBrowser(loopback.browserChoice)
        let pastes = (noBrowser || !loopback.canOpenPages) && isatty(STDIN_FILENO) == 1
        let agent: any ExternalUserAgent = pastes
            ? PastedRedirectUserAgent(wrapping: loopback, nextLine: { await PastedLines.standardInput.next() },
                                      onUnreadable: { Notice.notice($0 + ".", prefix: "rider: ", json: json) })
            : loopback
        let flow = SignInFlow(browser: BrowserSignIn(redirectPath: redirectPath, timeout: timeout, opensBrowser: opensBrowser,
                                                     prompt: { prompt in
                                                         Self.tell(prompt, pastes: pastes, timeout: timeout, json: json)
                                                     },
                                                     userAgent: agent))
        let session: Session
        do {
            session = try await Interruption.cancelling(saying: "the sign-in was cancelled; nothing was stored.",
                                                        json: global.json) {
                try await rider.signIn(flow)
            }
        } catch let error as RiderError where error.remedy == .setClientID {
            throw await Self.withoutClientID(error, context)
        }
        try await printSignedIn(session, context)
    }

    /// The one step that works when browser sign-in has no client id: where the provider takes
    /// registrations (RFC 7591), a sign-in to the server as a protected resource registers rider
    /// there (docs/registration.md); elsewhere only the provider can give the id.
    private static func withoutClientID(_ error: RiderError, _ context: CommandContext) async -> RiderError {
        let server = context.rider.authorizationServer
        let issuer = context.issuer ?? context.server
        guard context.rider.api.resource == nil, let discovery = try? await server.provider(),
              let metadata = try? await discovery.metadata().metadata, metadata.registrationEndpoint != nil else {
            return RiderError.invalidConfiguration("browser sign-in needs the client id \(issuer) registered for rider, "
                + "and none is set; the provider takes no registrations, so only its administrators can give one: set "
                + "it with `rider config set client_id ID` (or RIDER_CLIENT_ID)", underlying: error)
        }
        return RiderError.invalidConfiguration("browser sign-in needs a client id at \(issuer), and none is set; the "
            + "provider registers clients, so run `rider login --web --resource \(context.server)`, which registers "
            + "rider there and signs in", underlying: error)
    }

    /// A refused password's advice cut to the sign-ins that can start here (the library names
    /// those the provider offers): neither without the provider's endpoints, so the step that
    /// can is named instead; not the browser's without a client id, which it would refuse for.
    private static func advisingWhatStarts(_ error: RiderError, _ context: CommandContext) async -> RiderError {
        guard case .signInWithoutPassword(let browser, let deviceCode)? = error.remedy else { return error }
        guard canSignInWithoutPassword(context) else { return error.suggesting(.nameProviderToSignInWithoutPassword) }
        let server = context.rider.authorizationServer
        guard browser, let discovery = try? await server.provider(),
              let metadata = try? await discovery.metadata().metadata, !browserSignInCanStart(metadata, context)
        else { return error }
        return deviceCode && metadata.supportsGrant(AuthorizationServer.deviceCodeGrant)
            ? error.suggesting(.signInWithoutPassword(browser: false, deviceCode: true))
            : error.suggesting(.setClientID)
    }

    /// Whether the browser sign-in can start at the provider of `metadata`: it offers the flow,
    /// and rider has a client id there, set or (for a protected resource) one it can get where
    /// the provider lets clients register.
    private static func browserSignInCanStart(_ metadata: ProviderMetadata, _ context: CommandContext) -> Bool {
        let server = context.rider.authorizationServer
        return metadata.supportsGrant("authorization_code") && metadata.endpoints.authorization != nil
            && (context.rider.api.clientID != nil || (server.registration != nil
                && (metadata.registrationEndpoint != nil || metadata.clientIDMetadataDocumentSupported == true)))
    }

    /// Whether a browser or device-code sign-in can start: an issuer, or their endpoints set.
    private static func canSignInWithoutPassword(_ context: CommandContext) -> Bool {
        let server = context.rider.authorizationServer
        return server.hasProvider || server.explicit.authorization != nil || server.explicit.deviceAuthorization != nil
    }

    /// Shows the code and the page on standard error (standard output keeps the result, so
    /// `--json` stays one object), then waits for the approval. With `--json` the code and the
    /// page go out as one `sign_in` object, once the browser was asked to open the page.
    private func signInWithDeviceCode(_ context: CommandContext) async throws {
        let pending = try await context.rider.signInWithDeviceCode.start()
        let page = pending.verificationURIComplete ?? pending.verificationURI
        if !global.json {
            Console.standardError("To sign in, open \(pending.verificationURI.absoluteString.terminalSafe) "
                + "and enter the code \(pending.userCode.terminalSafe)")
        }
        if let warning = await Self.verificationPageWarning(pending, context) {
            Notice.warning(warning, json: global.json)
        }
        let browser = LoopbackBrowserUserAgent()
        tellBrowser(browser.browserChoice)
        let opened = noBrowser ? false : try await browser.show(page)
        if global.json {
            Notice.signIn(SignInPromptOutput(device: pending, openedInBrowser: opened))
        } else {
            if opened { Console.standardError("(the page was opened in your browser)") }
            Console.standardError("Waiting for the sign-in to be approved (Ctrl-C to give up)…")
        }
        let rider = context.rider
        let session = try await Interruption.cancelling(saying: "the sign-in was cancelled; nothing was stored.",
                                                        json: global.json) {
            try await rider.signInWithDeviceCode.complete(pending)
        }
        try await printSignedIn(session, context)
    }

    /// A warning when the page the provider names for the code is on a host unrelated to the
    /// issuer and to the device authorization endpoint (``DeviceVerificationPage``).
    private static func verificationPageWarning(_ pending: DeviceAuthorization, _ context: CommandContext) async -> String? {
        var providers: [URL] = []
        if let issuer = context.configuration.discovery?.issuer { providers.append(issuer) }
        if let endpoint = try? await context.rider.authorizationServer.deviceAuthorizationEndpoint() {
            providers.append(endpoint)
        }
        let pages = [pending.verificationURI] + (pending.verificationURIComplete.map { [$0] } ?? [])
        return DeviceVerificationPage.warning(unrelated: DeviceVerificationPage.unrelatedHosts(of: pages, providers: providers),
                                              providers: providers)
    }

    private func printSignedIn(_ session: Session, _ context: CommandContext) async throws {
        // The session is stored; the email only decorates the answer, so a failure here is not one.
        // The identity the provider gave comes first; the rider API, where there is one, next.
        var email = session.identity?.email
        if email == nil, context.configuration.hasRiderAPI { email = (try? await context.rider.currentUser())?.value.email }
        let output = LoginOutput(server: context.server, issuer: context.issuer,
                                 email: email ?? session.identity?.name ?? session.userID.rawValue,
                                 session: session)
        let others = await Self.activate(session, context)
        try context.print(json: output, lines: [output.line] + others)
    }

    /// The ways to sign in without a password.
    private enum Flow { case browser, device }

    /// How plain `rider login` (no `--email`) signs in, from the issuer's metadata: in the
    /// browser when the provider offers it and a browser can be opened or the answer can be
    /// pasted on the terminal, else with a device code (saying why when the browser was offered),
    /// else in the browser all the same (the address is printed) when there is no password grant
    /// to fall back on; `nil` to ask for a password, as without an issuer.
    /// - Returns: the flow, and whether the provider offers the password grant too.
    private func standardFlow(_ context: CommandContext) async throws -> (Flow, passwordOffered: Bool)? {
        let server = context.rider.authorizationServer
        guard let discovery = try await server.provider(), server.explicit.token == nil else { return nil }
        let metadata = try await discovery.metadata().metadata
        // Without a client id the provider cannot tell who asks, and the browser sign-in would fail;
        // for a protected resource, one is registered where the provider lets clients register.
        let browser = Self.browserSignInCanStart(metadata, context)
        let device = metadata.supportsGrant(AuthorizationServer.deviceCodeGrant)
        let password = try await server.passwordGrantRefusal() == nil
        if browser, LoopbackBrowserUserAgent().canOpenPages { return (.browser, password) }
        // No browser here, but a terminal: the person opens the page elsewhere and pastes the answer.
        if browser, isatty(STDIN_FILENO) == 1 { return (.browser, password) }
        if device {
            if browser {
                Notice.notice("No browser can be opened here and standard input is not a terminal to paste "
                    + "the browser's answer on.", json: global.json)
            }
            return (.device, password)
        }
        if browser, !password { return (.browser, password) }
        return nil
    }
}

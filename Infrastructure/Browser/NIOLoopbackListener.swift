import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import RiderDomain

/// Listens for a browser sign-in's redirect on `http://127.0.0.1:<port><path>` (on
/// `http://[::1]:<port><path>` where IPv4 loopback cannot be bound), the port chosen by the
/// system unless given (RFC 8252 §7.3: a loopback IP literal, not `localhost`, which a resolver
/// or a hosts file could send elsewhere; bound to the loopback address only, so no other machine
/// can connect). Given addresses (`127.0.0.1:8400`, `[::1]:8400`) are tried in order, a
/// busy one skipped, for providers that compare redirect URIs exactly, port included.
///
/// Other programs on the machine can connect too, and so can web pages through the browser: a
/// request whose `Host` is not `127.0.0.1:<port>` (or `[::1]:<port>`) is answered 400 whatever
/// its path (DNS rebinding), and a request to the path that does not carry the sign-in's `state`
/// is answered 400; neither ends the wait. The provider's page is offered at
/// `/start/<random>` (256 bits from the system's CSPRNG), which redirects once and answers 410
/// after; a second request there stops the wait, since it means another program may have read
/// the address and opened it first.
///
/// The redirect half of ``LoopbackBrowserUserAgent``, which starts the browser with the one-time
/// address.
package struct NIOLoopbackListener: Sendable {
    private let group: any EventLoopGroup
    private let addresses: [LoopbackListenAddress]
    private let onSkipped: @Sendable (String) -> Void

    /// - Parameters:
    ///   - addresses: where to listen, tried in order until one can be bound (a provider that
    ///     compares redirect URIs exactly, port included, needs the port it has registered);
    ///     by default ``LoopbackListenAddress/automatic``: `127.0.0.1`, else `::1`, on a port
    ///     the system picks.
    ///   - onSkipped: told, in library terms, about each address that could not be bound before
    ///     one could (a busy port), so the person knows which redirect URI is in use.
    ///   - group: the event loops to listen on; NIO's shared ones by default.
    package init(addresses: [LoopbackListenAddress] = LoopbackListenAddress.automatic,
                 onSkipped: @escaping @Sendable (String) -> Void = { _ in },
                 group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.group = group
        self.addresses = addresses.isEmpty ? LoopbackListenAddress.automatic : addresses
        self.onSkipped = onSkipped
    }

    /// Starts listening for requests to `path`, on the first of the addresses that can be bound.
    /// - Parameter path: the redirect URI's path, for example `/callback`.
    /// - Returns: the endpoint, already accepting connections.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when nothing can listen (no loopback
    ///   interface, no free port, none of the addresses free).
    package func listen(path: String) async throws -> LoopbackRedirectEndpoint {
        var refusals: [(LoopbackListenAddress, any Error)] = []
        for (index, address) in addresses.enumerated() {
            do {
                return try await listen(on: address, path: path)
            } catch let error as BindFailure {
                refusals.append((address, error.underlying))
                if index + 1 < addresses.count {
                    onSkipped("cannot listen on \(address) (\(Self.reason(error.underlying))); trying "
                        + "\(addresses[index + 1]) instead")
                }
            }
        }
        let tried = refusals.map { "\($0.0) (\(Self.reason($0.1)))" }.joined(separator: ", ")
        guard addresses != LoopbackListenAddress.automatic else {
            throw RiderError.invalidConfiguration("cannot listen on 127.0.0.1 or ::1 for the browser's return: \(tried)",
                                                  underlying: refusals.last?.1)
        }
        throw RiderError.invalidConfiguration("none of the addresses to listen on for the browser's return is free: "
            + tried, underlying: refusals.last?.1)
    }

    /// A bind that failed: the next address is tried.
    private struct BindFailure: Error { let underlying: any Error }

    private func listen(on address: LoopbackListenAddress, path: String) async throws -> LoopbackRedirectEndpoint {
        let state = RedirectState(path: path)
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 16)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { child in
                    state.track(child)
                    return child.pipeline.configureHTTPServerPipeline(withErrorHandling: true).flatMap {
                        child.pipeline.addHandler(RedirectHandler(state: state))
                    }
                }
                .bind(host: address.host, port: address.port).get()
        } catch {
            throw BindFailure(underlying: error)
        }
        do {
            guard let port = channel.localAddress?.port else {
                throw RiderError.invalidConfiguration("the loopback listener has no port")
            }
            return try LoopbackRedirectEndpoint(origin: "http://\(address.authorityHost):\(port)", path: path,
                                                channel: channel, state: state)
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// Why a bind failed, in a few words ("in use" for the common case).
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? IOError else { return "\(error)" }
        switch error.errnoCode {
        case EADDRINUSE: return "in use"
        case EADDRNOTAVAIL, EAFNOSUPPORT: return "no such loopback address here"
        case EACCES: return "not allowed"
        default: return String(cString: strerror(error.errnoCode))
        }
    }
}

/// Where the loopback listener may listen: a loopback IP literal (`127.0.0.1` or `::1`, never
/// `localhost`, which a resolver could send elsewhere; RFC 8252 §8.3) and a port, `0` for one the
/// system picks.
package struct LoopbackListenAddress: Hashable, Sendable, CustomStringConvertible {
    /// `127.0.0.1` or `::1`.
    package let host: String
    /// 0 to 65535; 0 lets the system choose.
    package let port: Int

    /// `127.0.0.1` on a port the system picks.
    package static let ephemeral = LoopbackListenAddress(checkedHost: "127.0.0.1", port: 0)
    /// `::1` on a port the system picks.
    package static let ephemeralIPv6 = LoopbackListenAddress(checkedHost: "::1", port: 0)
    /// Where to listen when none is given: IPv4 loopback, and IPv6 loopback where IPv4's cannot be
    /// bound (a container or host without it; RFC 8252 §7.3 allows either for the redirect).
    package static let automatic = [ephemeral, ephemeralIPv6]

    private init(checkedHost host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `127.0.0.1:8400` or `[::1]:8400`.
    /// - Throws: `RiderError.invalidConfiguration(_:)` for anything else: another host (only the
    ///   loopback IP literals receive a redirect no other machine can send), no port, a port out
    ///   of range.
    package init(parsing text: String) throws {
        let (host, port): (Substring, Substring)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw Self.refusal(text) }
            port = rest.dropFirst()
        } else {
            // An IPv6 address is written in brackets, or its port could not be told from it.
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { throw Self.refusal(text) }
            (host, port) = (text[..<colon], text[text.index(after: colon)...])
        }
        guard host == "127.0.0.1" || host == "::1" else {
            throw RiderError.invalidConfiguration("the listen address \(Self.clip(text)) is not 127.0.0.1:PORT or "
                + "[::1]:PORT: the browser's return is received on a loopback address only")
        }
        guard !port.isEmpty, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber), port.count <= 5,
              let number = Int(port), (0...65_535).contains(number) else {
            throw RiderError.invalidConfiguration("the listen address \(Self.clip(text)) has no port from 0 to 65535")
        }
        self.init(checkedHost: String(host), port: number)
    }

    /// At most 64 characters of what was given, so a pasted wall of text stays out of the message.
    private static func clip(_ text: String) -> String {
        text.count > 64 ? text.prefix(64) + "…" : text
    }

    private static func refusal(_ text: String) -> RiderError {
        RiderError.invalidConfiguration("the listen address \(Self.clip(text)) is not 127.0.0.1:PORT or [::1]:PORT")
    }

    /// The host as a URL writes it: `[::1]` for IPv6.
    var authorityHost: String { host.contains(":") ? "[\(host)]" : host }

    package var description: String { "\(authorityHost):\(port)" }
}

/// One listening redirect endpoint: sends the browser on to the provider's page once, hands out
/// the provider's redirect once, then answers the browser and stops.
///
/// Only a redirect that belongs to the sign-in (its `state` matches) ends the wait: any other
/// request to the path is answered 400 and the wait goes on, so a program or web page that finds
/// the port cannot end the sign-in. Requests to another path get 404, other methods than `GET`
/// get 405; none of them ends the wait.
package struct LoopbackRedirectEndpoint: Sendable {
    /// The `redirect_uri` to send the provider (`http://127.0.0.1:<port>/callback`).
    package let redirectURI: URL
    /// `http://127.0.0.1:<port>` (or `http://[::1]:<port>`): where the one-time address is.
    private let origin: String
    private let channel: any Channel
    private let state: RedirectState

    fileprivate init(origin: String, path: String, channel: any Channel, state: RedirectState) throws {
        guard let redirectURI = URL(string: origin + path) else {
            throw RiderError.invalidConfiguration("the redirect path \(path) does not make an address")
        }
        self.redirectURI = redirectURI
        self.origin = origin
        self.channel = channel
        self.state = state
    }

    /// Readies the endpoint for one authorization request: from now on it hands over only the
    /// redirects `isAnswer` accepts, and it offers `page` behind an address of its own that sends
    /// a browser on to it once.
    ///
    /// The provider's page carries the request's `state` and PKCE challenge. A browser started
    /// with it would show them to every user of the machine (in the process list); the address
    /// returned here holds nothing but a random one-time path.
    /// - Parameters:
    ///   - page: the provider's authorization page, with the request's query.
    ///   - isAnswer: whether a redirect is this request's answer (carries its `state`); called for
    ///     every request to the redirect path, so it must be quick and must not block.
    /// - Returns: the address to open in the browser, `http://127.0.0.1:<port>/start/<random>`.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when no address can be made.
    package func offer(_ page: URL, acceptingAnswers isAnswer: @escaping @Sendable (URL) -> Bool) async throws -> URL {
        // 32 bytes: 256 bits, so the address can only be had by reading it, never by guessing.
        let token = SwiftCryptoSignInCryptography().randomBytes(count: 32).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        guard let address = URL(string: origin + RedirectState.startPrefix + token)
        else {
            throw RiderError.invalidConfiguration("the loopback listener cannot make an address for the sign-in page")
        }
        state.offer(page, token: token, isAnswer: isAnswer)
        return address
    }

    /// Waits for the redirect: the first `GET` to the path that the check given to
    /// ``offer(_:acceptingAnswers:)`` accepts.
    /// - Returns: the whole address the browser asked for, its query holding the provider's answer.
    /// - Throws: `CancellationError` when the task is cancelled; the endpoint keeps listening
    ///   until ``finish(with:)``. `RiderError.untrustedAuthorizationResponse(_:)` when the
    ///   one-time address was asked for twice, which is what a second program that read it and
    ///   opened it first leaves behind.
    package func redirect() async throws -> URL {
        try await state.waitForRedirect()
    }

    /// Answers the browser's request with `page` (when a redirect came) and stops listening.
    /// Call it exactly once, whatever happened: it is what frees the port.
    package func finish(with page: RedirectPage) async {
        let children = state.finish(answering: page)
        try? await channel.close()
        for child in children { try? await child.close() }
    }
}

/// What the connections share: the page offered once, the check an answer must pass, the one
/// redirect, whoever waits for it, and the connection that brought it, kept open until the
/// sign-in's outcome can be shown there.
private final class RedirectState: Sendable {
    static let startPrefix = "/start/"

    let path: String

    /// The one-time address's life.
    private enum Start {
        case notOffered
        case offered(token: String, page: URL)
        case spent(token: String)
    }

    /// What a request to `/start/…` gets.
    enum StartAnswer {
        /// The first time: on to the provider's page.
        case redirect(to: URL)
        /// Any time after; `stopped` when that ended a wait still going on.
        case spent(stopped: Bool)
        /// A path nobody was given.
        case unknown
    }

    /// What a request to the redirect path gets.
    enum Acceptance {
        /// The answer: its connection waits for the outcome.
        case accepted
        /// Not the answer (no or another `state`, or nothing offered yet): 400, the wait goes on.
        case notTheAnswer
        /// The answer again, after the wait took one.
        case alreadyAnswered
    }

    private struct Inner {
        var start = Start.notOffered
        var isAnswer: (@Sendable (URL) -> Bool)?
        var redirect: Result<URL, any Error>?
        var waiter: CheckedContinuation<URL, any Error>?
        var answer: (@Sendable (RedirectPage) -> Void)?
        var finished = false
        var children: [any Channel] = []
    }

    private let inner = NIOLockedValueBox(Inner())

    init(path: String) { self.path = path }

    func track(_ child: any Channel) {
        inner.withLockedValue { $0.children.append(child) }
    }

    func offer(_ page: URL, token: String, isAnswer: @escaping @Sendable (URL) -> Bool) {
        inner.withLockedValue { state in
            state.start = .offered(token: token, page: page)
            state.isAnswer = isAnswer
        }
    }

    /// The page for the first request to the one-time address; after it, a refusal that also
    /// ends a wait still going on (the person's browser coming second means someone else may
    /// hold the provider's page, and could answer it with their own account).
    func start(token: String) -> StartAnswer {
        let (answer, waiter) = inner.withLockedValue { state -> (StartAnswer, CheckedContinuation<URL, any Error>?) in
            switch state.start {
            case .notOffered:
                return (.unknown, nil)
            case .offered(let offered, let page):
                guard Self.sameBytes(token, offered) else { return (.unknown, nil) }
                state.start = .spent(token: offered)
                return (.redirect(to: page), nil)
            case .spent(let offered):
                guard Self.sameBytes(token, offered) else { return (.unknown, nil) }
                guard state.redirect == nil, !state.finished else { return (.spent(stopped: false), nil) }
                state.redirect = .failure(Self.reusedStart)
                defer { state.waiter = nil }
                return (.spent(stopped: true), state.waiter)
            }
        }
        waiter?.resume(throwing: Self.reusedStart)
        return answer
    }

    static let reusedStart = RiderError.untrustedAuthorizationResponse(
        "the one-time address that opens the sign-in page was asked for twice, so another program on this machine "
            + "may have opened it first")

    /// Takes the first redirect that passes the offered check; a request that does not pass it
    /// leaves the wait as it was.
    func accept(_ url: URL, answer: @escaping @Sendable (RedirectPage) -> Void) -> Acceptance {
        guard let isAnswer = inner.withLockedValue({ $0.isAnswer }), isAnswer(url) else { return .notTheAnswer }
        let (accepted, waiter) = inner.withLockedValue { state -> (Bool, CheckedContinuation<URL, any Error>?) in
            guard state.redirect == nil, !state.finished else { return (false, nil) }
            state.redirect = .success(url)
            state.answer = answer
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume(returning: url)
        return accepted ? .accepted : .alreadyAnswered
    }

    func waitForRedirect() async throws -> URL {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancelled before the waiter was stored, the handler below found nobody: the
                // flag is set before it runs, so checking it under the lock closes that gap.
                let ready: Result<URL, any Error>? = inner.withLockedValue { state in
                    if let redirect = state.redirect { return redirect }
                    if Task.isCancelled || state.finished { return .failure(CancellationError()) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            takeWaiter()?.resume(throwing: CancellationError())
        }
    }

    private func takeWaiter() -> CheckedContinuation<URL, any Error>? {
        inner.withLockedValue { state in
            defer { state.waiter = nil }
            return state.waiter
        }
    }

    /// Shows `page` on the redirect's connection, if one came, and hands back every connection
    /// to close.
    func finish(answering page: RedirectPage) -> [any Channel] {
        let (answer, children) = inner.withLockedValue { state in
            state.finished = true
            state.isAnswer = nil
            defer { state.answer = nil }
            return (state.answer, state.children)
        }
        answer?(page)
        takeWaiter()?.resume(throwing: CancellationError())
        return children
    }

    /// Compares every byte whatever the first difference, so timing a refusal teaches nothing
    /// about the one-time path.
    private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (Array(lhs.utf8), Array(rhs.utf8))
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}

/// One connection: a 400 for another `Host`, a 404 for other paths, a 405 for other methods, a
/// 400 for a redirect that is not the sign-in's answer (none of them ends the wait); the
/// one-time redirect to the provider's page; and for the answer, nothing until the sign-in's
/// outcome is known.
private final class RedirectHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: RedirectState
    private var head: HTTPRequestHead?

    init(state: RedirectState) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard let port = context.channel.localAddress?.port, Self.isAddressedHere(head, port: port) else {
            // A page on a name that resolves to 127.0.0.1 (DNS rebinding) sends its own Host.
            return write(.badRequest, Self.html(title: "Wrong address",
                                                message: "This server answers only requests addressed to 127.0.0.1."),
                         context: context)
        }
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if path == state.path {
            guard head.method == .GET else { return notAllowed(context) }
            // The address as the browser asked for it: on the loopback address the listener is bound to.
            let host = context.channel.localAddress?.ipAddress.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "127.0.0.1"
            return respondToRedirect(URL(string: "http://\(host):\(port)\(head.uri)"), context: context)
        }
        if path.hasPrefix(RedirectState.startPrefix) {
            guard head.method == .GET else { return notAllowed(context) }
            return respondToStart(token: String(path.dropFirst(RedirectState.startPrefix.count)), context: context)
        }
        write(.notFound, Self.html(title: "Not found", message: "Nothing is here."), context: context)
    }

    /// Exactly one `Host`, naming the loopback address and this port, as a browser sent to the
    /// redirect URI writes it.
    private static func isAddressedHere(_ head: HTTPRequestHead, port: Int) -> Bool {
        let hosts = head.headers["Host"]
        guard hosts.count == 1, let host = hosts.first else { return false }
        return host == "127.0.0.1:\(port)" || host == "[::1]:\(port)"
    }

    private func respondToRedirect(_ url: URL?, context: ChannelHandlerContext) {
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let acceptance = url.map { url in
            state.accept(url) { page in
                loop.execute {
                    let status: HTTPResponseStatus = page.succeeded ? .ok : .badRequest
                    bound.value.handler.write(status, Self.html(title: page.title, message: page.message),
                                              context: bound.value.context)
                }
            }
        } ?? .notTheAnswer
        switch acceptance {
        case .accepted:
            break
        case .notTheAnswer:
            write(.badRequest, Self.html(title: "Not this sign-in's answer",
                                         message: "This address does not carry the answer the waiting sign-in expects, "
                                             + "so it was ignored."),
                  context: context)
        case .alreadyAnswered:
            write(.conflict, Self.html(title: "Already answered",
                                       message: "This sign-in has already received its answer; this one was ignored."),
                  context: context)
        }
    }

    private func respondToStart(token: String, context: ChannelHandlerContext) {
        switch state.start(token: token) {
        case .redirect(let page):
            write(.seeOther, "", extra: [("Location", page.absoluteString)], context: context)
        case .spent(let stopped):
            let message = "This address opens the sign-in page only once, and it has been used."
                + (stopped ? " If you did not open it before, another program on this machine may have, so the sign-in "
                    + "was stopped and nothing was stored: start again in the program that asked you to sign in." : "")
            write(.gone, Self.html(title: "This address has been used", message: message), context: context)
        case .unknown:
            write(.notFound, Self.html(title: "Not found", message: "Nothing is here."), context: context)
        }
    }

    private func notAllowed(_ context: ChannelHandlerContext) {
        write(.methodNotAllowed, Self.html(title: "Method not allowed", message: "Only GET is answered here."),
              extra: [("Allow", "GET")], context: context)
    }

    private func write(_ status: HTTPResponseStatus, _ body: String, extra: [(String, String)] = [],
                       context: ChannelHandlerContext) {
        var headers = NIOHTTP1.HTTPHeaders([
            ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", String(body.utf8.count)),
            ("Connection", "close"), ("Cache-Control", "no-store"),
            // The address holds the authorization code, or (for the one-time address) leads to
            // the request's state: no page this leads to may see it, and nothing may keep it.
            ("Referrer-Policy", "no-referrer"),
            ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"),
        ])
        headers.add(contentsOf: extra)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                      promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    /// A small page; the texts are escaped, since they can quote what the provider sent.
    static func html(title: String, message: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em}</style></head>
        <body><h1 id="title">\(escape(title))</h1><p id="message">\(escape(message))</p></body></html>
        """
    }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

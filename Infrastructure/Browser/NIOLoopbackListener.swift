import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import RiderDomain

/// Listens for a browser sign-in's redirect on `http://127.0.0.1:<port><path>`, the port chosen
/// by the system (RFC 8252 §7.3: a loopback IP literal, not `localhost`, which a resolver or a
/// hosts file could send elsewhere; bound to 127.0.0.1 only, so no other machine can connect).
public struct NIOLoopbackListener: LoopbackListener {
    private let group: any EventLoopGroup

    /// - Parameter group: the event loops to listen on; NIO's shared ones by default.
    public init(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.group = group
    }

    public func listen(path: String) async throws -> any AuthorizationRedirectEndpoint {
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
                .bind(host: "127.0.0.1", port: 0).get()
        } catch {
            throw RiderError.invalidConfiguration("cannot listen on 127.0.0.1 for the browser's return", underlying: error)
        }
        guard let port = channel.localAddress?.port, let uri = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            try? await channel.close()
            throw RiderError.invalidConfiguration("the loopback listener has no port")
        }
        return LoopbackRedirectEndpoint(redirectURI: uri, channel: channel, state: state)
    }
}

/// The listening endpoint handed to the sign-in.
private struct LoopbackRedirectEndpoint: AuthorizationRedirectEndpoint {
    let redirectURI: URL
    let channel: any Channel
    let state: RedirectState

    func redirect() async throws -> URL {
        let base = "http://127.0.0.1:\(redirectURI.port ?? 0)"
        let target = try await state.waitForRedirect()
        guard let url = URL(string: base + target) else {
            throw RiderError.malformedResponse("the browser came back to an address that cannot be read")
        }
        return url
    }

    func finish(with page: RedirectPage) async {
        let children = state.finish(answering: page)
        try? await channel.close()
        for child in children { try? await child.close() }
    }
}

/// What the connections share: the one redirect, whoever waits for it, and the connection that
/// brought it, kept open until the sign-in's outcome can be shown there.
private final class RedirectState: Sendable {
    let path: String

    private struct Inner {
        var redirect: String?
        var waiter: CheckedContinuation<String, any Error>?
        var answer: (@Sendable (RedirectPage) -> Void)?
        var finished = false
        var children: [any Channel] = []
    }

    private let inner = NIOLockedValueBox(Inner())

    init(path: String) { self.path = path }

    func track(_ child: any Channel) {
        inner.withLockedValue { $0.children.append(child) }
    }

    /// Takes the first redirect; `false` when one was already taken (or the sign-in is over).
    func accept(target: String, answer: @escaping @Sendable (RedirectPage) -> Void) -> Bool {
        let (accepted, waiter) = inner.withLockedValue { state -> (Bool, CheckedContinuation<String, any Error>?) in
            guard state.redirect == nil, !state.finished else { return (false, nil) }
            state.redirect = target
            state.answer = answer
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume(returning: target)
        return accepted
    }

    func waitForRedirect() async throws -> String {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancelled before the waiter was stored, the handler below found nobody: the
                // flag is set before it runs, so checking it under the lock closes that gap.
                let ready: Result<String, any Error>? = inner.withLockedValue { state in
                    if let redirect = state.redirect { return .success(redirect) }
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

    private func takeWaiter() -> CheckedContinuation<String, any Error>? {
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
            defer { state.answer = nil }
            return (state.answer, state.children)
        }
        answer?(page)
        takeWaiter()?.resume(throwing: CancellationError())
        return children
    }
}

/// One connection: a 404 for other paths, a 405 for other methods (neither ends the wait), and
/// for the redirect, nothing until the sign-in's outcome is known.
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
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard path == state.path else {
            return write(.notFound, Self.html(title: "Not found", message: "Nothing is here."), context: context)
        }
        guard head.method == .GET else {
            return write(.methodNotAllowed, Self.html(title: "Method not allowed", message: "Only GET is answered here."),
                         extra: [("Allow", "GET")], context: context)
        }
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let accepted = state.accept(target: head.uri) { page in
            loop.execute {
                let status: HTTPResponseStatus = page.succeeded ? .ok : .badRequest
                bound.value.handler.write(status, Self.html(title: page.title, message: page.message),
                                          context: bound.value.context)
            }
        }
        if !accepted {
            write(.conflict, Self.html(title: "Already answered",
                                       message: "This sign-in has already received its answer; this one was ignored."),
                  context: context)
        }
    }

    private func write(_ status: HTTPResponseStatus, _ body: String, extra: [(String, String)] = [],
                       context: ChannelHandlerContext) {
        var headers = NIOHTTP1.HTTPHeaders([
            ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", String(body.utf8.count)),
            ("Connection", "close"), ("Cache-Control", "no-store"),
            // The address holds the authorization code: no page this leads to may see it.
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

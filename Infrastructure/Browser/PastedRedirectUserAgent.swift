import Foundation
import RiderDomain

/// A user agent that also takes the provider's answer pasted back by the person: for a browser
/// on another machine (an SSH session, a container, a remote dev box), which cannot reach the
/// loopback listener here.
///
/// It wraps another user agent (the loopback one): the page is presented through it, and the
/// wait for the answer is a race between its redirect, which still wins when it arrives, and a
/// line the person pastes, either the whole address their browser ended on
/// (`http://127.0.0.1:<port>/callback?code=…&state=…`, which that browser could not load) or just
/// its query (`code=…&state=…`). The pasted text becomes the redirect address, so it goes through
/// exactly the checks a redirect does (`state`, RFC 9207 `iss`, error answers) and is refused
/// with the same errors.
///
/// Unlike the listener, it does not filter answers with the check given to
/// ``ExternalUserAgentSession/present(_:shows:acceptingAnswers:)``: only the person types on the
/// terminal, so an answer there with another `state` is theirs, to another sign-in or handed to
/// them by someone else, and they are told it was refused rather than left waiting. A line that
/// is not an answer at all (no `code` and no `error`) is reported and the wait goes on. The pasted
/// text is never repeated in any message: it holds the authorization code.
package struct PastedRedirectUserAgent: ExternalUserAgent {
    private let base: any ExternalUserAgent
    private let nextLine: @Sendable () async -> String?
    private let onUnreadable: @Sendable (String) -> Void

    /// - Parameters:
    ///   - base: presents the page and receives redirects as it always does.
    ///   - nextLine: the next line the person typed; `nil` when there will be no more (end of
    ///     input), and promptly when the task waiting for it is cancelled.
    ///   - onUnreadable: told, in library terms and without the line, when a line is not an
    ///     answer, before the next one is read.
    package init(wrapping base: any ExternalUserAgent, nextLine: @escaping @Sendable () async -> String?,
                 onUnreadable: @escaping @Sendable (String) -> Void = { _ in }) {
        self.base = base
        self.nextLine = nextLine
        self.onUnreadable = onUnreadable
    }

    package func beginAuthorization(redirectPath: String) async throws -> any ExternalUserAgentSession {
        PastedRedirectSession(base: try await base.beginAuthorization(redirectPath: redirectPath),
                              nextLine: nextLine, onUnreadable: onUnreadable)
    }

    package func show(_ page: URL) async throws -> Bool {
        try await base.show(page)
    }

    /// The redirect address a pasted line stands for: `redirectURI` with the pasted query.
    /// - Parameters:
    ///   - text: the whole address the browser ended on, or its query (with or without `?`).
    ///   - redirectURI: the sign-in's redirect URI, without a query.
    /// - Returns: `nil` when the text is not a provider's answer (no `code` or `error`
    ///   parameter, characters no address holds).
    package static func redirect(pasted text: String, to redirectURI: URL) -> URL? {
        var query = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if query.contains("://") {
            guard let mark = query.firstIndex(of: "?") else { return nil }
            query = query[query.index(after: mark)...]
        } else if query.hasPrefix("?") {
            query = query.dropFirst()
        }
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        guard !query.isEmpty, query.unicodeScalars.allSatisfy(queryCharacters.contains) else { return nil }
        let names = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first ?? "" }
        guard names.contains("code") || names.contains("error") else { return nil }
        var base = redirectURI.absoluteString
        if let mark = base.firstIndex(of: "?") { base = String(base[..<mark]) }
        return URL(string: base + "?" + query)
    }

    /// RFC 3986's query: unreserved, percent-encoded, sub-delims, `:`, `@`, `/`, `?`.
    private static let queryCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%!$&'()*+,;=:@/?")
}

/// One sign-in: the wrapped session's redirect raced against a pasted one.
private struct PastedRedirectSession: ExternalUserAgentSession {
    let base: any ExternalUserAgentSession
    let nextLine: @Sendable () async -> String?
    let onUnreadable: @Sendable (String) -> Void

    var redirectURI: URL { base.redirectURI }

    /// Presents through the wrapped session; when that showed nothing here, the address to give
    /// the person is the provider's page itself, which a browser on any machine can open (the
    /// loopback adapter's one-time address works only on this one).
    func present(_ page: URL, shows: Bool, acceptingAnswers isAnswer: @escaping @Sendable (URL) -> Bool)
        async throws -> UserAgentPresentation {
        let presented = try await base.present(page, shows: shows, acceptingAnswers: isAnswer)
        return presented.shown ? presented : UserAgentPresentation(address: page, shown: false)
    }

    func redirect() async throws -> URL {
        let (base, pasted) = (base, pasted)
        return try await withThrowingTaskGroup(of: URL?.self) { group in
            group.addTask { try await base.redirect() }
            group.addTask { await pasted() }
            defer { group.cancelAll() }
            // A paste source that ends (end of input) leaves the redirect to wait for.
            while let next = try await group.next() {
                if let redirect = next { return redirect }
            }
            throw CancellationError()
        }
    }

    func finish(with page: RedirectPage) async {
        await base.finish(with: page)
    }

    /// The first line that is an answer, as a redirect address; `nil` once input ends.
    private func pasted() async -> URL? {
        while let line = await nextLine() {
            guard !Task.isCancelled else { return nil }
            if line.allSatisfy(\.isWhitespace) { continue }
            if let redirect = PastedRedirectUserAgent.redirect(pasted: line, to: redirectURI) { return redirect }
            onUnreadable("that line is not the provider's answer: paste the whole address the browser ended on "
                + "(it starts with \(redirectURI.absoluteString)?), or its code=…&state=… part")
        }
        return nil
    }
}

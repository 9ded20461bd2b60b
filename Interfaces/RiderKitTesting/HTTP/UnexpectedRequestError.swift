import Foundation
import RiderDomain

/// Thrown by ``StubTransport`` for a request nothing answers, so the code under test fails
/// instead of receiving an invented response.
public struct UnexpectedRequestError: Error, CustomStringConvertible, LocalizedError {
    /// The request, as the code under test sent it.
    public let request: HTTPRequest
    /// The routes that still had replies left when it arrived.
    public let scriptedRoutes: [String]

    /// - Parameters:
    ///   - request: the unanswered request.
    ///   - scriptedRoutes: descriptions of the routes that were still scripted.
    package init(request: HTTPRequest, scriptedRoutes: [String]) {
        self.request = request
        self.scriptedRoutes = scriptedRoutes
    }

    /// The whole request — URL, headers, body — with credentials headers, cookies, tokens and
    /// passwords redacted, and what was scripted, so the failure explains itself.
    public var description: String {
        var lines = RequestRedaction.lines(for: request)
        lines[0] = "StubTransport received an unexpected request: " + lines[0]
        lines.append(scriptedRoutes.isEmpty
            ? "Nothing else was scripted."
            : "Still scripted: \(scriptedRoutes.joined(separator: ", ")).")
        return lines.joined(separator: "\n")
    }

    public var errorDescription: String? { description }
}

import Foundation

/// The server a stored session belongs to: the origin of the API that accepts its access token
/// and the origin of the token endpoint that accepts its refresh token.
///
/// A vault records it with every session it saves and refuses to hand a session to any other
/// server: a vault file named in the configuration, or a keyring item, must never send one
/// server's tokens to another because the configured server changed. Origins are not secret,
/// so the binding may be shown to a person and is stored in the clear (authenticated, in the
/// encrypted file's associated data).
public struct SessionBinding: Hashable, Sendable, CustomStringConvertible {
    /// `scheme://host[:port]` of the API, e.g. `https://api.example.com`.
    public var apiOrigin: String
    /// `scheme://host[:port]` of the token endpoint; the API's origin when the token path is
    /// relative to it.
    public var tokenEndpointOrigin: String

    /// - Parameters:
    ///   - apiOrigin: the API's origin.
    ///   - tokenEndpointOrigin: the token endpoint's origin; `nil` means the API's.
    public init(apiOrigin: String, tokenEndpointOrigin: String? = nil) {
        self.apiOrigin = apiOrigin
        self.tokenEndpointOrigin = tokenEndpointOrigin ?? apiOrigin
    }

    /// The server as a person would name it: the API origin, plus the token endpoint's when it
    /// lives elsewhere.
    public var description: String {
        tokenEndpointOrigin == apiOrigin ? apiOrigin : "\(apiOrigin) (tokens from \(tokenEndpointOrigin))"
    }

    /// Two lines of UTF-8, `api <origin>` and `token <origin>`: what the encrypted file stores
    /// after its fixed header.
    var serialized: [UInt8] {
        Array("api \(apiOrigin)\ntoken \(tokenEndpointOrigin)".utf8)
    }

    /// Reads ``serialized``; `nil` for anything else.
    static func parse(_ bytes: some Collection<UInt8>) -> SessionBinding? {
        guard let text = String(validating: Array(bytes), as: UTF8.self) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 2, lines[0].hasPrefix("api "), lines[1].hasPrefix("token ") else { return nil }
        let api = String(lines[0].dropFirst("api ".count))
        let token = String(lines[1].dropFirst("token ".count))
        guard !api.isEmpty, !token.isEmpty else { return nil }
        return SessionBinding(apiOrigin: api, tokenEndpointOrigin: token)
    }
}

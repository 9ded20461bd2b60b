import Foundation
import RiderDomain

/// One libFuzzer input, cut into what a decoder receives: the first line is a header value, the
/// rest is the body. Seeds in `Fuzz/Corpus/<target>/` follow the same shape.
public struct FuzzInput {
    public let bytes: [UInt8]

    public init(_ start: UnsafeRawPointer, count: Int) {
        bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// The first line (without `\n`), as text.
    public var headerLine: String {
        String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    }

    /// Everything after the first line; the whole input when there is no line break.
    public var body: Data {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return Data(bytes) }
        return Data(bytes[(newline + 1)...])
    }

    /// All of it, as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Invariants every decoder keeps whatever it is fed; a violation crashes, so libFuzzer keeps
/// the input as a finding.
public enum FuzzInvariant {
    /// What a person sees for `error` is one printable line of bounded length.
    public static func printable(_ error: any Error, limit: Int = 2_000) {
        let text = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
        _ = error.localizedDescription
        _ = String(reflecting: error)
        precondition(text.count <= limit, "an error message of \(text.count) characters")
        precondition(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
                     "an error message with control characters: \(text.debugDescription)")
    }

    /// No rendering of `value` depends on its secrets: rendering it, and a copy whose secrets
    /// `swap` replaced with others, gives the same text.
    ///
    /// A search for the secret's text in the rendering is not enough: outside data may put the
    /// token inside a field that is shown on purpose (a user id `u_1at_…` holding the access token
    /// `at_…`), and the search would flag that; a rendering that shows a secret changes with it.
    public static func redacted<Value>(_ value: Value, swap: (inout Value) -> Void,
                                       renderings: (Value) -> [String]) {
        var other = value
        swap(&other)
        let shown = renderings(value)
        let shownForOther = renderings(other)
        for (rendering, renderingForOther) in zip(shown, shownForOther) where rendering != renderingForOther {
            preconditionFailure("a rendering shows a secret: \(rendering.debugDescription)")
        }
    }

    /// A secret of the same presence as `secret` and another value: the swap ``redacted(_:swap:renderings:)``
    /// needs, which keeps `nil` as `nil` (renderings may say whether a token exists).
    public static func otherSecret(than secret: String) -> String {
        secret == "swapped-secret-A" ? "swapped-secret-B" : "swapped-secret-A"
    }

    /// Every way a value is printed: `description`, `debugDescription` (via reflection) and `dump`.
    public static func renderings(of value: some CustomStringConvertible) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [value.description, String(reflecting: value), dumped]
    }

    /// No rendering of `session` depends on its access or refresh token.
    public static func tokensRedacted(in session: Session) {
        redacted(session, swap: { session in
            session.accessToken = otherSecret(than: session.accessToken)
            session.refreshToken = session.refreshToken.map(otherSecret(than:))
        }, renderings: renderings(of:))
    }
}

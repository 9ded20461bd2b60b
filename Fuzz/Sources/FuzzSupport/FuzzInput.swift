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

    /// `rendered` does not quote `secret` (when the secret is long enough to be recognisable).
    public static func redacted(_ rendered: String, hides secret: String?) {
        guard let secret, secret.count >= 8 else { return }
        precondition(!rendered.contains(secret), "a rendering shows a secret: \(rendered.debugDescription)")
    }
}

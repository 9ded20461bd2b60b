import Foundation

/// Makes opaque bearer and refresh tokens: 32 bytes from the system's secure generator.
struct OpaqueTokenGenerator: Sendable {
    let alphabet: TokenAlphabet

    func next() -> String {
        switch alphabet {
        case .base64URL:
            return Self.base64URL(Self.randomBytes())
        case .formHostile:
            // Standard base64 of 32 bytes always ends in "="; draw until "+" and "/" appear too
            // (about one draw in two has both).
            while true {
                let token = Data(Self.randomBytes()).base64EncodedString()
                if token.contains("+") && token.contains("/") { return token }
            }
        }
    }

    private static func randomBytes() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

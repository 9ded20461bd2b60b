import Crypto
import Foundation
import RiderDomain

/// SHA-256 and random bytes from swift-crypto and the system's CSPRNG, for PKCE, `state` and
/// `nonce`.
package struct SwiftCryptoSignInCryptography: SignInCryptography {
    package init() {}

    package func sha256(_ data: Data) -> Data {
        Data(SHA256.hash(data: data))
    }

    package func randomBytes(count: Int) -> Data {
        // SystemRandomNumberGenerator is getrandom(2) on Linux, arc4random on Apple systems:
        // cryptographically secure on both, as the standard library documents.
        var generator = SystemRandomNumberGenerator()
        return Data((0..<max(count, 0)).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

import Crypto
import Foundation
import _CryptoExtras

/// Key derivation and authenticated encryption for the session file, all from swift-crypto.
enum VaultCipher {
    private static let keyCheckLabel = Array("RiderKit vault key check v1".utf8)

    /// scrypt(passphrase, salt) → a 256-bit AES key.
    static func deriveKey(passphrase: String, salt: [UInt8], parameters: ScryptParameters) throws(VaultError) -> SymmetricKey {
        // The header check already refused these; this keeps any other caller within the bounds.
        if let refusal = parameters.refusal { throw .unavailable(reason: "the key derivation was refused: \(refusal)") }
        do {
            // The limit is passed explicitly, though swift-crypto (3.12 to 4.x) does not yet hand it
            // on to BoringSSL: the bounds above are what holds today.
            return try KDF.Scrypt.deriveKey(from: Array(passphrase.utf8), salt: salt, outputByteCount: 32,
                                            rounds: 1 << Int(parameters.logN), blockSize: Int(parameters.r),
                                            parallelism: Int(parameters.p), maxMemory: parameters.memoryLimit)
        } catch {
            throw .unavailable(reason: "the key derivation failed")
        }
    }

    /// A value that tells a wrong passphrase from a damaged file without decrypting anything.
    static func keyCheck(for key: SymmetricKey) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: keyCheckLabel, using: key).prefix(16))
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The whole file: header, then ciphertext and tag, the header authenticated as associated data.
    static func seal(_ plaintext: Data, key: SymmetricKey, salt: [UInt8], parameters: ScryptParameters,
                     binding: SessionBinding?) throws(VaultError) -> Data {
        let nonceBytes = randomBytes(VaultFileHeader.nonceSize)
        let header = VaultFileHeader(parameters: parameters, salt: salt, nonce: nonceBytes,
                                     keyCheck: keyCheck(for: key), binding: binding).bytes
        do {
            let box = try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: nonceBytes),
                                       authenticating: header)
            return Data(header) + box.ciphertext + box.tag
        } catch {
            throw .unavailable(reason: "encryption failed")
        }
    }

    /// Decrypts a file whose header was already parsed and whose key check matched.
    static func open(_ data: [UInt8], header: VaultFileHeader, key: SymmetricKey, file: String) throws(VaultError) -> Data {
        let body = data[header.length...]
        let ciphertext = body.dropLast(VaultFileHeader.tagSize)
        let tag = body.suffix(VaultFileHeader.tagSize)
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: header.nonce), ciphertext: ciphertext, tag: tag)
            return try AES.GCM.open(box, using: key, authenticating: data[0..<header.length])
        } catch {
            throw .corrupted(file: file, detail: "its contents fail authentication (altered or truncated)")
        }
    }
}

import Foundation
import JWTKit
import RiderDomain

/// `private_key_jwt` client assertions (RFC 7523 §2.2) signed by jwt-kit with the private key in
/// a PEM file: a P-256 key signs ES256, an RSA key (2,048 bits or more) RS256.
///
/// The file is read for each assertion through `read`, which the composition root makes check it
/// as the vault's files are checked (the owner's alone, in folders only its owner can change:
/// refused otherwise, never repaired), so a rotated key is used at once and a key others could
/// read is never used.
package struct JWTKitClientAssertionSigner: ClientAssertionSigner {
    /// The PEM file holding the client's private key (`client_key_file`), named in errors.
    package let keyFile: URL
    /// Reads the file's bytes (`nil` when it does not exist), throwing for a file or folder that
    /// others could read or change.
    private let read: @Sendable () throws -> Data?
    /// How long an assertion is good for: long enough to cross the network, short enough that a
    /// copied one is dead by the time anyone could replay it.
    static let lifetime: TimeInterval = 60

    /// - Parameters:
    ///   - keyFile: the PEM file, for messages.
    ///   - read: reads it, with the checks a secret file gets.
    package init(keyFile: URL, read: @escaping @Sendable () throws -> Data?) {
        self.keyFile = keyFile
        self.read = read
    }

    package func assertion(clientID: String, audience: String, now: Date) async throws -> String {
        let keys = try await signingKeys()
        let claims = Claims(
            iss: clientID, sub: clientID, aud: audience,
            jti: Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString(),
            iat: Int(now.timeIntervalSince1970), exp: Int(now.addingTimeInterval(Self.lifetime).timeIntervalSince1970))
        do {
            return try await keys.sign(claims)
        } catch {
            throw RiderError.invalidConfiguration("the client key in \(keyFile.path) could not sign an assertion",
                                                  underlying: error)
        }
    }

    /// The key from the file, in a collection that signs with it.
    private func signingKeys() async throws -> JWTKeyCollection {
        let contents: Data?
        do {
            contents = try read()
        } catch {
            throw RiderError.invalidConfiguration("the client key file \(keyFile.path) cannot be used: "
                + ((error as? RiderError)?.message ?? error.localizedDescription), underlying: error)
        }
        guard let contents, let pem = String(data: contents, encoding: .utf8) else {
            throw RiderError.invalidConfiguration("the client key file \(keyFile.path) does not exist or is not text")
        }
        let keys = JWTKeyCollection()
        if let key = try? ES256PrivateKey(pem: pem) {
            await keys.add(ecdsa: key)
        } else if let key = try? Insecure.RSA.PrivateKey(pem: pem) {
            await keys.add(rsa: key, digestAlgorithm: .sha256)
        } else {
            // Neither parser's error is shown: it could quote the key.
            throw RiderError.invalidConfiguration("the client key file \(keyFile.path) holds no P-256 or RSA (2048 bits "
                + "or more) private key in PEM form")
        }
        return keys
    }

    /// RFC 7523 §3's claims.
    private struct Claims: JWTPayload {
        let iss: String
        let sub: String
        let aud: String
        let jti: String
        let iat: Int
        let exp: Int

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

extension JWTKitClientAssertionSigner: CustomStringConvertible {
    /// The file's path only: never the key.
    package var description: String { "ClientAssertionSigner(keyFile: \(keyFile.path))" }
}

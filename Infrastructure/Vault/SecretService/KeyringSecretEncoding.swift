import Foundation

/// How the serialized session is written as a keyring item's secret: `riderkit:v2:` followed by
/// the session's JSON in base64url without padding (RFC 4648 §5).
///
/// Not the JSON itself: some providers treat the secret as text of their own. KeePassXC stores it
/// as an entry's password and expands `{…}` placeholders in it when it is read (logging "Maximum
/// depth of replacement has been reached" for JSON), and refuses a secret that looks like a
/// `{REF:…}` reference. The base64url alphabet has no braces, spaces or quotes, so no provider
/// has anything to interpret. The tag says what follows, so a later encoding can be told apart.
///
/// Items written before the tag existed hold the raw JSON (encoding 1); they are still read.
/// The tag's version is the encoding's, not the ``StoredSession`` format's, which the JSON
/// carries itself.
enum KeyringSecretEncoding {
    /// The prefix of every tagged secret; what follows it up to the next `:` is the version.
    static let tagPrefix = "riderkit:"
    /// The encoding written today.
    static let currentVersion = 2

    /// The secret to store for a serialized session.
    static func encode(_ session: Data) -> String {
        let base64 = session.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "\(tagPrefix)v\(currentVersion):\(base64)"
    }

    /// The serialized session in a stored secret, tagged or (as written before the tag) raw JSON.
    /// - Throws: ``VaultError/unreadableSecret(detail:)`` for a tag of an encoding this RiderKit
    ///   does not know, or a payload that is not base64url; the message never shows the secret.
    static func decode(_ secret: String) throws(VaultError) -> Data {
        guard secret.hasPrefix(tagPrefix) else { return Data(secret.utf8) }
        let rest = secret.dropFirst(tagPrefix.count)
        guard let colon = rest.firstIndex(of: ":") else {
            throw .unreadableSecret(detail: "its encoding tag is incomplete")
        }
        let tag = rest[..<colon]
        guard tag == "v\(currentVersion)" else {
            if tag.first == "v", let version = Int(tag.dropFirst()), version > currentVersion {
                throw .unreadableSecret(detail: "it was written by a newer RiderKit (secret encoding \(version))")
            }
            throw .unreadableSecret(detail: "its encoding tag is not one RiderKit writes")
        }
        guard let data = base64URLDecoded(rest[rest.index(after: colon)...]) else {
            throw .unreadableSecret(detail: "its encoded session is not base64url")
        }
        return data
    }

    private static func base64URLDecoded(_ text: Substring) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        switch base64.count % 4 {
        case 2: base64 += "=="
        case 3: base64 += "="
        case 1: return nil
        default: break
        }
        return Data(base64Encoded: base64)
    }
}

import Crypto
import Foundation
import RiderDomain

/// Where one account's own file goes beside its server's: the account's key before the
/// extension (`session.vault` → `session.3f2a…c1.vault`, `users.sqlite` → `users.3f2a…c1.sqlite`).
///
/// The key is the first 16 hex digits of the account id's SHA-256: ids (an OpenID subject may be
/// any string) never reach a file name, and two accounts never share a file.
package enum AccountFile {
    /// `file` for `account`.
    package static func file(_ file: URL, for account: UserID) -> URL {
        let name = file.lastPathComponent
        let key = self.key(for: account)
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let scoped = dot.map { "\(name[..<$0]).\(key)\(name[$0...])" } ?? "\(name).\(key)"
        return file.deletingLastPathComponent().appendingPathComponent(scoped)
    }

    /// The account's key in file names.
    package static func key(for account: UserID) -> String {
        SHA256.hash(data: Data(account.rawValue.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}

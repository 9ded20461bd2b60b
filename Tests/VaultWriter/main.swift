// A test helper, not a product: saves sessions to an encrypted vault file in a loop so tests can
// kill it mid-write or run several at once.
//
//   VaultWriter FILE TAG COUNT     (COUNT 0 = until killed; passphrase from RIDER_VAULT_PASSPHRASE)
//
// Prints "ready" after the first save. Each session's user id is TAG and its access token is
// "TAG-<n>-" followed by padding, so a reader can tell whose write it sees and that it is whole.
import Foundation
import RiderDomain
import RiderInfrastructure

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: VaultWriter FILE TAG COUNT\n".utf8))
    exit(2)
}
let tag = arguments[2]
let passphrase = VaultPassphrase.environment(ProcessInfo.processInfo.environment) ?? .unavailable
let vault = EncryptedFileTokenVault(file: URL(fileURLWithPath: arguments[1]), passphrase: passphrase)
// Large enough that a write takes a while, so a kill often lands in the middle of one.
let padding = String(repeating: "x", count: 512 * 1024)

var written = 0
while count == 0 || written < count {
    written += 1
    let session = Session(accessToken: "\(tag)-\(written)-\(padding)", refreshToken: "\(tag)-refresh",
                          expiresAt: nil, userID: UserID(tag), role: nil, issuedAt: Date())
    do {
        try await vault.saveSession(session)
    } catch {
        FileHandle.standardError.write(Data("VaultWriter: \(error.localizedDescription)\n".utf8))
        exit(1)
    }
    if written == 1 {
        FileHandle.standardOutput.write(Data("ready\n".utf8))
    }
}

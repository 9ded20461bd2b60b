// A test helper, not a product: saves sessions to an encrypted vault file in a loop so tests can
// kill it mid-write or run several at once.
//
//   VaultWriter FILE TAG COUNT     (COUNT 0 = until killed; passphrase from RIDER_VAULT_PASSPHRASE)
//
// Prints "ready" after the first save. Each session's user id is TAG and its access token is
// "TAG-<n>-" followed by padding, so a reader can tell whose write it sees and that it is whole.
// Exits when the process that started it is gone, so a test that dies cannot leave it writing.
import Foundation
import RiderDomain
import RiderInfrastructure
#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` to `descriptor`, ignoring failure. Not `FileHandle.write(_:)`, which traps on
/// an error: the test may have stopped reading (and it ignores SIGPIPE, which children inherit),
/// and that is no reason for the writer to crash.
func emit(_ text: String, to descriptor: Int32) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    emit("usage: VaultWriter FILE TAG COUNT\n", to: STDERR_FILENO)
    exit(2)
}
let parent = getppid()
let tag = arguments[2]
let passphrase = VaultPassphrase.environment(ProcessInfo.processInfo.environment) ?? .unavailable
let vault = EncryptedFileTokenVault(file: URL(fileURLWithPath: arguments[1]), passphrase: passphrase)
// Large enough that a write takes a while, so a kill often lands in the middle of one.
let padding = String(repeating: "x", count: 512 * 1024)

var written = 0
while count == 0 || written < count {
    guard getppid() == parent else { exit(3) }
    written += 1
    let session = Session(accessToken: "\(tag)-\(written)-\(padding)", refreshToken: "\(tag)-refresh",
                          expiresAt: nil, userID: UserID(tag), role: nil, issuedAt: Date())
    do {
        try await vault.saveSession(session)
    } catch {
        emit("VaultWriter: \(error.localizedDescription)\n", to: STDERR_FILENO)
        exit(1)
    }
    if written == 1 {
        emit("ready\n", to: STDOUT_FILENO)
    }
}

import Foundation
import FuzzSupport
import RiderDomain
import VaultFormat

// The JSON a vault holds (decrypted file contents, or a keyring item any program of the user's
// could have written): the whole input is the secret.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoredSession(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = FuzzInput(start, count: count).body
    guard let session = try? VaultFormatFuzzing.storedSession(data) else { return 0 }
    FuzzInvariant.tokensRedacted(in: session)
    _ = session.isExpired(at: FuzzFixtures.now, leeway: 60)
    return 0
}

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
    var dumped = ""
    dump(session, to: &dumped)
    for rendering in [session.description, String(reflecting: session), dumped] {
        FuzzInvariant.redacted(rendering, hides: session.accessToken)
        FuzzInvariant.redacted(rendering, hides: session.refreshToken)
    }
    _ = session.isExpired(at: FuzzFixtures.now, leeway: 60)
    return 0
}

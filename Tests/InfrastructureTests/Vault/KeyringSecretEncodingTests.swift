import Foundation
@testable import RiderInfrastructure
import Testing

@Suite("The keyring secret's encoding: tagged base64url, raw JSON still read")
struct KeyringSecretEncodingTests {
    @Test("any bytes, of every length modulo 3, come back unchanged")
    func roundTrip() throws {
        for length in 0..<7 {
            let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: 0xF8 &+ $0 &* 37) })
            #expect(try KeyringSecretEncoding.decode(KeyringSecretEncoding.encode(bytes)) == bytes)
        }
    }

    @Test("the secret is riderkit:v2: and base64url without padding: nothing a placeholder engine would expand")
    func alphabet() throws {
        let json = Data(#"{"access_token":"{REF:P@I:46C9B1FF}","refresh_token":"{USERNAME} x+y/z=","version":2}"#.utf8)
        let secret = KeyringSecretEncoding.encode(json)
        #expect(secret.hasPrefix("riderkit:v2:"))
        let payload = secret.dropFirst("riderkit:v2:".count)
        #expect(payload.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(try KeyringSecretEncoding.decode(secret) == json)
    }

    @Test("a secret written before the tag (raw JSON) is read as it is")
    func rawJSON() throws {
        let json = #"{"version":1,"access_token":"a","user_id":"u_7"}"#
        #expect(try KeyringSecretEncoding.decode(json) == Data(json.utf8))
    }

    @Test("a newer encoding, an unknown tag or a damaged payload is unreadableSecret, and the message shows none of it",
          arguments: ["riderkit:v3:U0VDUkVU", "riderkit:x9:U0VDUkVU", "riderkit:SECRET", "riderkit:v2:SECRET+/=",
                      "riderkit:v2:U0VDUkVUx"])
    func unreadable(secret: String) {
        #expect {
            try KeyringSecretEncoding.decode(secret)
        } throws: { error in
            guard let error = error as? VaultError, case .unreadableSecret = error else { return false }
            return !error.message.contains("SECRET") && !error.message.contains("U0VDUkVU")
        }
    }

    @Test("a newer encoding says so")
    func newer() {
        #expect(throws: VaultError.unreadableSecret(detail: "it was written by a newer RiderKit (secret encoding 3)")) {
            try KeyringSecretEncoding.decode("riderkit:v3:e30")
        }
    }
}

import Foundation
import RiderDomain
import Testing

@Suite("Credentials")
struct CredentialsTests {
    @Test("description, debugDescription, String(reflecting:) and dump never contain the password")
    func redaction() {
        let credentials = Credentials(email: "ada@example.com", password: "hunter2-SECRET")
        for (how, text) in renderings(of: credentials) {
            #expect(!text.contains("SECRET"), "\(how) leaks the password: \(text)")
        }
        #expect(credentials.description.contains("ada@example.com"))
    }
}

import Foundation
import RiderDomain
import Testing

@Suite("Registration")
struct RegistrationTests {
    func registration(
        email: String = "grace@example.com", password: String = "long enough SECRET",
        displayName: String = "Grace Hopper"
    ) -> Registration {
        Registration(email: email, password: password, displayName: displayName, riderType: .mentor)
    }

    func fields(of error: RiderError) -> [String] {
        guard error.code == .invalidInput, case let problems = error.fieldProblems else { return [] }
        return problems.map(\.field)
    }

    @Test("description, debugDescription, String(reflecting:) and dump never contain the password")
    func redaction() {
        for (how, text) in renderings(of: registration()) {
            #expect(!text.contains("SECRET"), "\(how) leaks the password: \(text)")
        }
    }

    @Test("a complete registration passes validation")
    func valid() throws {
        try registration().validate()
        try registration(password: "12345678", displayName: String(repeating: "x", count: 60)).validate()
    }

    @Test("an address that is not an email is rejected", arguments: [
        "", "grace", "grace@", "@example.com", "grace@example", "grace @example.com", "a@b@example.com",
    ])
    func invalidEmail(email: String) {
        let error = #expect(throws: RiderError.self) { try registration(email: email).validate() }
        #expect(error.map(fields) == ["email"])
    }

    @Test("a password shorter than 8 characters is rejected")
    func shortPassword() {
        let error = #expect(throws: RiderError.self) { try registration(password: "1234567").validate() }
        #expect(error.map(fields) == ["password"])
    }

    @Test("a display name must have 1 to 60 characters after trimming", arguments: [
        ("", false), ("   \n", false), (String(repeating: "x", count: 61), false),
        ("  " + String(repeating: "x", count: 60) + "  ", true), ("G", true),
    ])
    func displayNameLength(name: String, isValid: Bool) {
        if isValid {
            #expect(throws: Never.self) { try registration(displayName: name).validate() }
        } else {
            let error = #expect(throws: RiderError.self) { try registration(displayName: name).validate() }
            #expect(error.map(fields) == ["display_name"])
        }
    }

    @Test("every problem is reported at once, so one round of corrections suffices")
    func allProblemsAtOnce() {
        let error = #expect(throws: RiderError.self) {
            try registration(email: "nope", password: "short", displayName: " ").validate()
        }
        #expect(error.map(fields) == ["email", "password", "display_name"])
    }
}

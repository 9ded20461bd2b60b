import Foundation

/// What a new account needs. The password is redacted when printed.
public struct Registration: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public var email: String
    public var password: String
    public var displayName: String
    public var riderType: RiderType

    public init(email: String, password: String, displayName: String, riderType: RiderType) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.riderType = riderType
    }

    /// Checks what can be checked without the server, so a typo costs no round trip.
    ///
    /// - Throws: `RiderError.invalidInput(_:)` listing every problem found.
    public func validate() throws {
        var problems: [FieldProblem] = []
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        if parts.count != 2 || parts[0].isEmpty || !parts[1].contains(".") || email.contains(" ") {
            problems.append(FieldProblem(field: "email", message: "must be an email address like name@example.com"))
        }
        if password.count < 8 {
            problems.append(FieldProblem(field: "password", message: "must be at least 8 characters"))
        }
        let name = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty || name.count > 60 {
            problems.append(FieldProblem(field: "display_name", message: "must be 1 to 60 characters"))
        }
        guard problems.isEmpty else { throw RiderError.invalidInput(problems) }
    }

    public var description: String {
        "Registration(email: \(email), displayName: \(displayName), riderType: \(riderType), password: <redacted>)"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["email": email, "displayName": displayName, "riderType": riderType,
                                "password": "<redacted>"])
    }
}

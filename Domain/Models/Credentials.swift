import Foundation

/// An email and password, held only for the length of a login.
///
/// Never stored, never printed: `description` and `debugDescription` redact the password.
public struct Credentials: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }

    public var description: String { "Credentials(email: \(email), password: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["email": email, "password": "<redacted>"])
    }
}

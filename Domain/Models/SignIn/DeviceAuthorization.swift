import Foundation

/// A device sign-in under way (RFC 8628): the code a person enters at the provider's page, and
/// where that page is.
///
/// Show ``userCode`` and ``verificationURI`` (or open ``verificationURIComplete``, which carries
/// the code), then hand this value back to RiderKit to wait for the person's approval. The
/// device code that polls for the tokens is kept inside and never printed: whoever holds it gets
/// the session once the person approves.
public struct DeviceAuthorization: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The code the person types at ``verificationURI`` (for example `BCDF-GHJK`). Text from the
    /// provider: escape it before a terminal shows it.
    public let userCode: String
    /// The page where the person enters ``userCode`` and approves.
    public let verificationURI: URL
    /// The same page with the code filled in, when the provider offers one (for a link or a QR code).
    public let verificationURIComplete: URL?
    /// When the codes stop working; waiting ends then.
    public let expiresAt: Date
    /// Seconds to wait between two polls of the token endpoint (grows when the provider says
    /// `slow_down`).
    public let interval: TimeInterval
    /// The secret that polls the token endpoint.
    package let deviceCode: String

    package init(deviceCode: String, userCode: String, verificationURI: URL, verificationURIComplete: URL?,
                 expiresAt: Date, interval: TimeInterval) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresAt = expiresAt
        self.interval = interval
    }

    public var description: String {
        "DeviceAuthorization(userCode: \(userCode), verificationURI: \(verificationURI), deviceCode: <redacted>)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "userCode": userCode, "verificationURI": verificationURI,
            "verificationURIComplete": verificationURIComplete as Any, "expiresAt": expiresAt,
            "interval": interval, "deviceCode": "<redacted>",
        ])
    }
}

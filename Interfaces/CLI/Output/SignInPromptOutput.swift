import Foundation
import RiderKit

/// Where to sign in, as `--json` tells it on standard error: the same keys every time for a
/// method, an absent value `null`.
///
/// - `--device`: `{"method":"device","url":…,"user_code":…,"verification_uri":…,
///   "verification_uri_complete":…|null,"expires_at":…,"opened_in_browser":…}`, `url` being the
///   page with the code filled in where the provider offers one;
/// - `--web`: `{"method":"web","url":…,"opened_in_browser":…,"paste_answer":…,"timeout":…}`,
///   `url` the one-time address on this machine that leads to the provider's page, and
///   `paste_answer` whether rider also takes the browser's last address pasted on its standard
///   input.
struct SignInPromptOutput: Encodable {
    enum Method: String, Encodable { case web, device }

    private let method: Method
    private let url: URL
    private let openedInBrowser: Bool
    private let device: DeviceAuthorization?
    private let pastes: Bool
    private let timeout: TimeInterval

    /// A device code to enter at the provider's page.
    init(device: DeviceAuthorization, openedInBrowser: Bool) {
        (method, url, self.openedInBrowser) = (.device, device.verificationURIComplete ?? device.verificationURI,
                                               openedInBrowser)
        (self.device, pastes, timeout) = (device, false, 0)
    }

    /// The browser sign-in's page.
    init(web url: URL, openedInBrowser: Bool, pastes: Bool, timeout: TimeInterval) {
        (method, self.url, self.openedInBrowser) = (.web, url, openedInBrowser)
        (device, self.pastes, self.timeout) = (nil, pastes, timeout)
    }

    private enum CodingKeys: String, CodingKey {
        case method, url, openedInBrowser, userCode, verificationURI = "verificationUri",
             verificationURIComplete = "verificationUriComplete", expiresAt, pasteAnswer, timeout
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(method, forKey: .method)
        try container.encode(url, forKey: .url)
        try container.encode(openedInBrowser, forKey: .openedInBrowser)
        if let device {
            try container.encode(device.userCode, forKey: .userCode)
            try container.encode(device.verificationURI, forKey: .verificationURI)
            try container.encode(device.verificationURIComplete, forKey: .verificationURIComplete)
            try container.encode(device.expiresAt, forKey: .expiresAt)
        } else {
            try container.encode(pastes, forKey: .pasteAnswer)
            try container.encode(Int(timeout), forKey: .timeout)
        }
    }
}

import Foundation
import RiderKit

/// What `rider login` tells the person on standard error while a sign-in is under way.
///
/// Standard output keeps the one result. Without `--json` these are lines of prose; with
/// `--json` each is one JSON object on its own line, so a script can read every line of
/// standard error as JSON, the error object at the end included:
/// - `{"sign_in":{…}}`: where to sign in (``SignInPromptOutput``);
/// - `{"notice":{"message":…}}`: what the prose would have said (no browser here, a busy
///   `--listen` address skipped, a pasted answer that could not be read, …);
/// - `{"warning":{"message":…}}`: what the prose marks `rider: warning:`.
enum SignInNotice {
    /// A note for the person: `prefix` + `text`, or `{"notice":{"message":text}}` with `--json`.
    static func notice(_ text: String, prefix: String = "", json: Bool) {
        guard json else { return Console.standardError(prefix + text) }
        emit(["notice": MessageOutput(message: text)])
    }

    /// A warning: `rider: warning: text`, or `{"warning":{"message":text}}` with `--json`.
    static func warning(_ text: String, json: Bool) {
        guard json else { return Console.standardError("rider: warning: " + text.terminalSafe) }
        emit(["warning": MessageOutput(message: text)])
    }

    /// `{"sign_in":…}` on standard error (only with `--json`: the prose says it in sentences).
    static func signIn(_ prompt: SignInPromptOutput) {
        emit(["sign_in": prompt])
    }

    private static func emit(_ object: [String: some Encodable]) {
        // Every value here encodes; should one ever not, a line that still parses says so.
        Console.standardError(json: JSONOutput.string(object) ?? #"{"notice":{"message":"unprintable notice"}}"#)
    }

    struct MessageOutput: Encodable {
        let message: String
    }
}

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

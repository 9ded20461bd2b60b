import Foundation

/// Shows a web page to the person signing in: the provider's sign-in or approval page.
///
/// The command line opens the system browser; a program with a window may show the page in its
/// own web view instead, or display the address as a link or QR code. RiderKit always also gives
/// the address to its caller, so a person on a remote shell can open it elsewhere.
public protocol BrowserOpener: Sendable {
    /// Asks for `url` to be shown.
    /// - Returns: whether a browser was asked to show it (`false` when none is available).
    /// - Throws: only for a failure the person should hear about (a configured browser that
    ///   cannot be started).
    func open(_ url: URL) async throws -> Bool
}

/// The HTML of the device verification page (`/device`, RFC 8628 §3.3), a ``ProviderPage``.
///
/// The element ids `user_code`, `email`, `password`, `approve` and `deny` are stable, for
/// browser tests that drive the page.
enum DeviceVerificationPage {
    /// The form, with `userCode` and `email` filled in as given and `message` above it.
    static func form(userCode: String = "", email: String = "", message: String? = nil) -> String {
        let alert = message.map { #"<p class="error" role="alert">\#(ProviderPage.escape($0))</p>"# } ?? ""
        return ProviderPage.document(title: "Sign in a device", body: """
            <h1>Sign in a device</h1>
            \(alert)
            <p>Enter the code your terminal shows, then sign in to approve or deny it.</p>
            <form method="post" action="/device">
            <label for="user_code">Code</label>
            <input id="user_code" name="user_code" value="\(ProviderPage.escape(userCode))" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64" required>
            <label for="email">Email</label>
            <input id="email" name="email" type="email" value="\(ProviderPage.escape(email))" autocomplete="username" required>
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required>
            <div class="actions">
            <button id="approve" type="submit" name="action" value="approve">Approve</button>
            <button id="deny" type="submit" name="action" value="deny">Deny</button>
            </div>
            </form>
            """)
    }

    /// The page after an answer was recorded.
    static func done(approved: Bool) -> String {
        let heading = approved ? "Device signed in" : "Sign-in denied"
        let detail = approved ? "The device is now signed in to your account." : "The device will not be signed in."
        return ProviderPage.document(title: heading, body: """
            <h1 id="result">\(heading)</h1>
            <p>\(detail)</p>
            <p>You can close this tab and return to your terminal.</p>
            """)
    }
}

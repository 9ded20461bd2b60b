/// The HTML of the authorization endpoint's sign-in and consent page (`/oauth2/authorize`),
/// a ``ProviderPage``.
///
/// The element ids `client`, `email`, `password`, `approve` and `deny` are stable, for browser
/// tests that drive the page; the request id travels in a hidden field, so the form cannot alter
/// what the program asked for.
enum AuthorizationPage {
    /// The sign-in form for the request `requestID` of `clientID`, asking for `scope`.
    static func form(requestID: String, clientID: String, scope: String?, email: String = "",
                     message: String? = nil) -> String {
        let alert = message.map { #"<p class="error" role="alert">\#(ProviderPage.escape($0))</p>"# } ?? ""
        let access = scope.map { "It asks for: <code id=\"scope\">\(ProviderPage.escape($0))</code>." } ?? ""
        return ProviderPage.document(title: "Sign in", body: """
            <h1>Sign in to Rider</h1>
            \(alert)
            <p><strong id="client">\(ProviderPage.escape(clientID))</strong> wants to sign in to your account. \(access)</p>
            <form method="post" action="/oauth2/authorize">
            <input type="hidden" name="request" value="\(ProviderPage.escape(requestID))">
            <label for="email">Email</label>
            <input id="email" name="email" type="email" value="\(ProviderPage.escape(email))" autocomplete="username" required>
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required>
            <div class="actions">
            <button id="approve" type="submit" name="action" value="approve">Allow</button>
            <button id="deny" type="submit" name="action" value="deny">Deny</button>
            </div>
            </form>
            """)
    }

    /// A request that cannot be answered with a redirect (RFC 6749 §4.1.2.1: an unknown client
    /// or redirect URI must not be sent anywhere), or one that is no longer waiting.
    static func problem(_ message: String) -> String {
        ProviderPage.document(title: "Sign-in failed", body: """
            <h1 id="result">This sign-in cannot go on</h1>
            <p class="error" role="alert">\(ProviderPage.escape(message))</p>
            <p>Start the sign-in again in the program that sent you here.</p>
            """)
    }
}

import HTTPTypes
import Hummingbird
import NIOCore

/// The HTML of the device verification page (`/device`, RFC 8628 §3.3): one self-contained
/// document, no scripts and nothing loaded from elsewhere, every interpolated value escaped.
///
/// The element ids `user_code`, `email`, `password`, `approve` and `deny` are stable, for
/// browser tests that drive the page.
enum DeviceVerificationPage {
    /// Nothing but inline styles, forms posting back here, and never inside a frame
    /// (clickjacking a consent button is the classic attack on such a page).
    static var securityHeaders: HTTPFields {
        var headers: HTTPFields = [
            .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
            .cacheControl: "no-store",
        ]
        // Header names swift-http-types has no constant for; both are valid tokens, so they parse.
        for (name, value) in [("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer")] {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return headers
    }

    /// The form, with `userCode` and `email` filled in as given and `message` above it.
    static func form(userCode: String = "", email: String = "", message: String? = nil) -> String {
        let alert = message.map { #"<p class="error" role="alert">\#(escape($0))</p>"# } ?? ""
        return document(title: "Sign in a device", body: """
            <h1>Sign in a device</h1>
            \(alert)
            <p>Enter the code your terminal shows, then sign in to approve or deny it.</p>
            <form method="post" action="/device">
            <label for="user_code">Code</label>
            <input id="user_code" name="user_code" value="\(escape(userCode))" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64" required>
            <label for="email">Email</label>
            <input id="email" name="email" type="email" value="\(escape(email))" autocomplete="username" required>
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
        return document(title: heading, body: """
            <h1 id="result">\(heading)</h1>
            <p>\(detail)</p>
            <p>You can close this tab and return to your terminal.</p>
            """)
    }

    /// A response carrying `html`, with the page's security headers.
    static func response(_ html: String, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        var headers = securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// HTML-escapes text for element content and double- or single-quoted attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title)) · Rider</title>
        <style>
        body { font-family: system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d1f23; }
        main { max-width: 24rem; margin: 3rem auto; padding: 1.5rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
        h1 { font-size: 1.3rem; margin-top: 0; }
        label { display: block; margin-top: 1rem; font-weight: 600; }
        input { box-sizing: border-box; width: 100%; padding: .5rem; margin-top: .25rem; font-size: 1rem; }
        #user_code { font-family: ui-monospace, monospace; letter-spacing: .1em; text-transform: uppercase; }
        .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
        button { flex: 1; padding: .6rem; font-size: 1rem; border-radius: 6px; border: 1px solid #888; background: #fff; }
        #approve { background: #1a5fb4; border-color: #1a5fb4; color: #fff; }
        .error { padding: .5rem .75rem; background: #fdecea; border-left: 4px solid #c01c28; }
        </style>
        </head>
        <body>
        <main>
        \(body)
        </main>
        </body>
        </html>

        """
    }
}

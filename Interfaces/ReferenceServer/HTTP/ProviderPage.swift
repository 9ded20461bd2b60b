import HTTPTypes
import Hummingbird
import NIOCore

/// The provider's HTML pages (device verification, browser sign-in): self-contained documents,
/// no scripts and nothing loaded from elsewhere, every interpolated value escaped.
enum ProviderPage {
    /// Nothing but inline styles, forms posting back here, and never inside a frame
    /// (clickjacking a consent button is the classic attack on such a page).
    /// - Parameter formActions: origins besides this one a form may end up at: browsers apply
    ///   `form-action` to the redirects after a submission too, so the authorization page names
    ///   the redirect URI's origin it sends the browser back to.
    static func securityHeaders(formActions: [String] = []) -> HTTPFields {
        let targets = (["'self'"] + formActions).joined(separator: " ")
        var headers: HTTPFields = [
            .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action \(targets)",
            .cacheControl: "no-store",
        ]
        // Header names swift-http-types has no constant for; both are valid tokens, so they parse.
        for (name, value) in [("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer")] {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return headers
    }

    /// A response carrying `html`, with the page's security headers.
    static func response(_ html: String, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:],
                         formActions: [String] = []) -> Response {
        var headers = securityHeaders(formActions: formActions)
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

    static func document(title: String, body: String) -> String {
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

/// How a client introduced itself: its `User-Agent` and `Accept-Language` headers, as sent.
package struct ClientIdentity: Hashable, Sendable {
    package let userAgent: String?
    package let acceptLanguage: String?

    package init(userAgent: String?, acceptLanguage: String?) {
        self.userAgent = userAgent
        self.acceptLanguage = acceptLanguage
    }
}

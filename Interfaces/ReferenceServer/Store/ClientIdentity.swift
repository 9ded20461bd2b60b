/// How a client introduced itself: its `User-Agent` and `Accept-Language` headers, as sent.
public struct ClientIdentity: Hashable, Sendable {
    public let userAgent: String?
    public let acceptLanguage: String?

    public init(userAgent: String?, acceptLanguage: String?) {
        self.userAgent = userAgent
        self.acceptLanguage = acceptLanguage
    }
}

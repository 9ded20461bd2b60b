import Foundation
import RiderKit

/// A user read through the cache: the user's fields plus a `cache` object saying where the
/// answer came from and how old it is.
struct CachedUserOutput: Encodable, Sendable {
    let user: UserOutput
    let cache: CacheInfoOutput

    init(_ cached: Cached<User>, now: Date) {
        user = UserOutput(cached.value)
        cache = CacheInfoOutput(cached, now: now)
    }

    func encode(to encoder: any Encoder) throws {
        try user.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cache, forKey: .cache)
    }

    private enum CodingKeys: String, CodingKey { case cache }

    var lines: [String] {
        HumanFormat.block(user.fields + [("source", cache.summary)])
    }
}

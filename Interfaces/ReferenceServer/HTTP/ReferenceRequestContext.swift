import Hummingbird
import NIOCore

/// Hummingbird's basic context plus the peer's address, which the login throttle counts by.
struct ReferenceRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The IP address the request came from, or `nil` when the channel does not say.
    let clientAddress: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress
    }
}

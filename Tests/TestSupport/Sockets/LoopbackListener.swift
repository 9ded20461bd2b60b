public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A listening socket on `127.0.0.1` and the thread that accepts its connections and hands each
/// to `handle`, until ``stop()``. The one accept loop behind every hand-made test server.
///
/// `handle` owns the connection: it closes it when done.
public final class LoopbackListener: Sendable {
    /// The port the kernel picked.
    public let port: UInt16
    private let descriptor: Int32

    /// - Parameters:
    ///   - concurrently: each connection on a thread of its own (a proxy, whose handler waits on
    ///     the server behind it), or one after another on the accepting thread.
    ///   - handle: serves one connection and closes it.
    /// - Throws: `POSIXError` when no socket can be made or bound.
    public init(concurrently: Bool = false, handle: @escaping @Sendable (Int32) -> Void) throws {
        (descriptor, port) = try LoopbackSocket.listen()
        let listener = descriptor
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    break  // stop() shut the listener down
                }
                if concurrently {
                    Thread.detachNewThread { handle(client) }
                } else {
                    handle(client)
                }
            }
            close(listener)
        }
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!  // swiftlint:disable:this force_unwrapping
    }

    /// Wakes the accepting thread, which then closes the socket (shutdown wakes a thread blocked
    /// in accept; close alone does not on Linux).
    public func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}

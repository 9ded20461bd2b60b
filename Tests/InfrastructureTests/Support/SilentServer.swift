import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP socket that accepts connections (through the kernel's backlog) but never
/// answers, to make a client time out.
final class SilentServer: Sendable {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try ProxySocket.listen()
    }

    deinit { close(descriptor) }
}

/// A loopback port with nothing listening on it.
func closedLoopbackPort() throws -> UInt16 {
    let server = try SilentServer()
    return server.port  // the socket closes when `server` goes away
}

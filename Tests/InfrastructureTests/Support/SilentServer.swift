import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A loopback TCP socket that accepts connections (through the kernel's backlog) but never
/// answers, to make a client time out.
final class SilentServer: Sendable {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try LoopbackSocket.listen()
    }

    deinit { close(descriptor) }
}

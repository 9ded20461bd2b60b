import Foundation
import RiderDomain
import RiderInfrastructure
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--listen`: the loopback listener on the addresses a provider registered, tried in order, with
/// real sockets (one held by the test to make a port busy).
@Suite("Loopback listener on given addresses")
struct LoopbackListenAddressTests {
    /// A listening TCP socket on the loopback address, as another program would hold it.
    final class HeldPort {
        let descriptor: Int32
        let port: Int

        init(ipv6: Bool = false) throws {
            let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Self.stream, 0)
            guard descriptor >= 0 else { throw Failure("socket") }
            self.descriptor = descriptor
            var storage = sockaddr_storage()
            var length: socklen_t
            if ipv6 {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_addr = in6addr_loopback
                withUnsafeBytes(of: address) { bytes in
                    withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
                }
                length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            } else {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                withUnsafeBytes(of: address) { bytes in
                    withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
                }
                length = socklen_t(MemoryLayout<sockaddr_in>.size)
            }
            let bound = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            guard bound == 0, listen(descriptor, 1) == 0 else {
                close(descriptor)
                throw Failure("bind")
            }
            var actual = sockaddr_storage()
            var actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &actualLength) }
            }
            let raw = ipv6
                ? withUnsafeBytes(of: actual) { $0.load(as: sockaddr_in6.self).sin6_port }
                : withUnsafeBytes(of: actual) { $0.load(as: sockaddr_in.self).sin_port }
            port = Int(UInt16(bigEndian: raw))
        }

        func release() { close(descriptor) }

        #if canImport(Glibc)
        static let stream = Int32(SOCK_STREAM.rawValue)
        #else
        static let stream = SOCK_STREAM
        #endif

        /// A port nobody holds now: held, then let go.
        static func free() throws -> Int {
            let held = try HeldPort()
            held.release()
            return held.port
        }
    }

    struct Failure: Error { let step: String; init(_ step: String) { self.step = step } }

    static let ipv6Loopback: Bool = (try? HeldPort(ipv6: true)).map { $0.release(); return true } ?? false

    static func finish(_ endpoint: LoopbackRedirectEndpoint) async {
        await endpoint.finish(with: RedirectPage(succeeded: false, title: "t", message: "m"))
    }

    @Test("a given port is the redirect URI's, http://127.0.0.1:PORT/callback, and the one-time address is on it too")
    func fixedPort() async throws {
        let port = try HeldPort.free()
        let endpoint = try await NIOLoopbackListener(addresses: [try LoopbackListenAddress(parsing: "127.0.0.1:\(port)")])
            .listen(path: "/callback")
        let start = try await endpoint.offer(URL(string: "https://id.example.test/authorize")!, acceptingAnswers: { _ in false })
        await Self.finish(endpoint)
        #expect(endpoint.redirectURI.absoluteString == "http://127.0.0.1:\(port)/callback")
        #expect(start.absoluteString.hasPrefix("http://127.0.0.1:\(port)/start/"))
    }

    @Test("a busy port is skipped for the next address, and that is said, naming both")
    func busyPortSkipped() async throws {
        let busy = try HeldPort()
        defer { busy.release() }
        let free = try HeldPort.free()
        let said = SaidLines()
        let endpoint = try await NIOLoopbackListener(
            addresses: [try LoopbackListenAddress(parsing: "127.0.0.1:\(busy.port)"),
                        try LoopbackListenAddress(parsing: "127.0.0.1:\(free)")],
            onSkipped: { said.append($0) }).listen(path: "/callback")
        await Self.finish(endpoint)
        #expect(endpoint.redirectURI.absoluteString == "http://127.0.0.1:\(free)/callback")
        #expect(said.value == ["cannot listen on 127.0.0.1:\(busy.port) (in use); trying 127.0.0.1:\(free) instead"])
    }

    @Test("when no address is free, a clear invalidConfiguration names each and why")
    func noneFree() async throws {
        let busy = try HeldPort()
        defer { busy.release() }
        let thrown = await #expect(throws: RiderError.self) {
            _ = try await NIOLoopbackListener(addresses: [try LoopbackListenAddress(parsing: "127.0.0.1:\(busy.port)")])
                .listen(path: "/callback")
        }
        #expect(thrown?.code == .invalidConfiguration)
        #expect(thrown?.message.contains("127.0.0.1:\(busy.port) (in use)") == true, "\(String(describing: thrown?.message))")
    }

    @Test("[::1] listens on IPv6 loopback, its redirect URI http://[::1]:PORT/callback, and the browser's return there is taken",
          .enabled(if: LoopbackListenAddressTests.ipv6Loopback, "no IPv6 loopback here"))
    func ipv6() async throws {
        let endpoint = try await NIOLoopbackListener(addresses: [try LoopbackListenAddress(parsing: "[::1]:0")])
            .listen(path: "/callback")
        _ = try await endpoint.offer(URL(string: "https://id.example.test/authorize")!,
                                     acceptingAnswers: { $0.query == "code=c&state=s" })
        #expect(endpoint.redirectURI.absoluteString.hasPrefix("http://[::1]:"))
        let client = NIOLoopbackListenerTests.browser()
        let back = try #require(URL(string: endpoint.redirectURI.absoluteString + "?code=c&state=s"))
        let browser = Task { try await NIOLoopbackListenerTests.get(back, client: client) }
        #expect(try await endpoint.redirect() == back)
        await endpoint.finish(with: RedirectPage(succeeded: true, title: "t", message: "m"))
        #expect(try await browser.value.status == 200)
        await client.shutdown()
    }

    @Test("with no address given: IPv4 loopback, and IPv6 loopback where that cannot be bound; the default listener is on 127.0.0.1")
    func automatic() async throws {
        #expect(LoopbackListenAddress.automatic.map(\.description) == ["127.0.0.1:0", "[::1]:0"])
        let endpoint = try await NIOLoopbackListener().listen(path: "/callback")
        #expect(endpoint.redirectURI.host == "127.0.0.1", "\(endpoint.redirectURI)")
        await endpoint.finish(with: RedirectPage(succeeded: false, title: "t", message: "m"))
    }

    @Test("only loopback IP literals with a port are accepted",
          arguments: ["localhost:8400", "0.0.0.0:8400", "192.168.1.2:8400", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536",
                      "127.0.0.1:-1", "[::1]8400", "::1:8400", "127.0.0.1:８４"])
    func refused(text: String) {
        let thrown = #expect(throws: RiderError.self) { try LoopbackListenAddress(parsing: text) }
        #expect(thrown?.code == .invalidConfiguration)
    }

    @Test("127.0.0.1:PORT and [::1]:PORT are read", arguments: [("127.0.0.1:8400", "127.0.0.1", 8400), ("[::1]:8400", "::1", 8400),
                                                                  ("127.0.0.1:0", "127.0.0.1", 0)])
    func accepted(text: String, host: String, port: Int) throws {
        let address = try LoopbackListenAddress(parsing: text)
        #expect(address.host == host && address.port == port && address.description == text)
    }
}

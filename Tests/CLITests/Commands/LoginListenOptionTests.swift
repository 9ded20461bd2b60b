import ArgumentParser
import Foundation
@testable import RiderCLI
import Testing

@Suite("CLI rider login --listen: loopback addresses with a port, for the browser sign-in")
struct LoginListenOptionTests {
    @Test("repeatable, kept in order")
    func acceptsAddresses() throws {
        let command = try LoginCommand.parse(["--web", "--listen", "127.0.0.1:8400", "--listen", "[::1]:8400"])
        #expect(command.listen == ["127.0.0.1:8400", "[::1]:8400"])
    }

    @Test("an address that is not a loopback IP literal with a port, or --listen with another way in, is a usage error",
          arguments: [["--web", "--listen", "localhost:8400"], ["--web", "--listen", "127.0.0.1"],
                      ["--web", "--listen", "0.0.0.0:8400"], ["--device", "--listen", "127.0.0.1:8400"],
                      ["--email", "a@example.com", "--listen", "127.0.0.1:8400"]])
    func refusesOthers(arguments: [String]) {
        #expect(throws: (any Error).self) { try LoginCommand.parse(arguments) }
    }
}

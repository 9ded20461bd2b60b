import Crypto
import Foundation
import FuzzSupport
import RiderDomain
import VaultFormat

// The encrypted session file as EncryptedFileTokenVault reads it: the header is parsed and
// validated before any key derivation, so a crafted file must be refused here, cheaply.

/// The SHA-256 stand-in must be right, or every seed fails the checksum for the wrong reason.
private let digestChecked: Bool = {
    let abc = SHA256.hash(data: Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
    return abc == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVaultFile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    precondition(digestChecked, "the SHA-256 stand-in is wrong")
    let bytes = FuzzInput(start, count: count).bytes
    // As fed, which exercises the checksum itself; then with the checksum made to match, which
    // takes every input on to the algorithm ids, the scrypt bounds and what follows them.
    for input in [bytes, VaultFormatFuzzing.withValidChecksum(bytes)] {
        check(input)
    }
    return 0
}

private func check(_ bytes: [UInt8]) {
    do {
        let header = try VaultFormatFuzzing.reparsedHeader(bytes)
        // Every field is checked, so writing the header again gives the same bytes.
        precondition(header == Array(bytes.prefix(header.count)), "a header that does not round-trip")
        // Whatever parses is cheap to unlock: a crafted file cannot ask for gigabytes or minutes.
        let cost = try VaultFormatFuzzing.scryptCost(bytes)
        let maximum = VaultFormatFuzzing.maximumScryptCost
        precondition(cost.memory.map { $0 <= maximum.memory } == true, "scrypt memory over the bound was accepted")
        precondition(cost.parallelism <= maximum.parallelism, "scrypt parallelism over the bound was accepted")
    } catch {
        FuzzInvariant.printable(error)
        precondition(error.riderError.errorDescription?.isEmpty == false)
    }
}

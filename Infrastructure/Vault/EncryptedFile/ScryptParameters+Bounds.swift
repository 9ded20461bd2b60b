import Foundation

/// What scrypt costs a session file may ask for. The header is read before any passphrase is
/// used, so a crafted or damaged file must not be able to make unlocking take gigabytes or
/// minutes: its parameters are checked against these bounds first, and the same limit is
/// handed to the KDF.
extension ScryptParameters {
    /// At most 256 MiB for scrypt's table of N blocks of 128·r bytes: eight times the standard
    /// 32 MiB, room for a stronger setting without letting a file take the machine's memory.
    static let maximumMemory: UInt64 = 256 << 20
    /// At most 4 (the standard is 1): p multiplies the time, and the key is derived on one thread.
    static let maximumParallelism: UInt32 = 4
    /// At least N = 2^15, the standard: a file may ask for more work, never for less.
    static let minimumLogN: UInt8 = 15

    /// scrypt's table, 128·r·N bytes; `nil` when that does not even fit in 64 bits.
    var memory: UInt64? {
        guard logN < 64 else { return nil }
        let (blockBytes, overflow) = UInt64(128).multipliedReportingOverflow(by: UInt64(r))
        guard !overflow, blockBytes.leadingZeroBitCount > Int(logN) else { return nil }
        return blockBytes << UInt64(logN)
    }

    /// The memory limit handed to scrypt: the table at its largest allowed size plus the p + 1
    /// working blocks beside it (BoringSSL counts all of them), so no accepted file is refused
    /// by the KDF and no other is computed.
    var memoryLimit: Int {
        Int(Self.maximumMemory) + 128 * Int(min(r, 1 << 16)) * (Int(Self.maximumParallelism) + 1)
    }

    /// Why a file may not ask for these parameters, or `nil` when it may.
    var refusal: String? {
        if logN < Self.minimumLogN {
            return "its scrypt cost N = 2^\(logN) is below the 2^\(Self.minimumLogN) RiderKit requires"
        }
        if r == 0 { return "its scrypt block size r is 0" }
        if p == 0 || p > Self.maximumParallelism {
            return "its scrypt parallelism p = \(p) is outside the 1…\(Self.maximumParallelism) RiderKit allows"
        }
        guard let memory, memory <= Self.maximumMemory else {
            let asked = memory.map { "\(($0 + (1 << 20) - 1) >> 20) MiB" } ?? "more than 16 EiB"
            return "its scrypt parameters (N = 2^\(logN), r = \(r)) ask for \(asked) of memory; "
                + "RiderKit allows at most \(Self.maximumMemory >> 20) MiB"
        }
        return nil
    }
}

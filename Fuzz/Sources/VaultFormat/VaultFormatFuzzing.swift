import Foundation
import RiderDomain

/// The vault's internal parsers, opened up for the fuzz targets (this file is not linked into
/// RiderInfrastructure; the other files of this module are links to the real ones).
public enum VaultFormatFuzzing {
    /// Parses the header at the start of `bytes` as `EncryptedFileTokenVault` does and returns it
    /// serialized again.
    /// - Throws: `VaultError`.
    public static func reparsedHeader(_ bytes: [UInt8]) throws(VaultError) -> [UInt8] {
        try VaultFileHeader.parse(bytes, file: "/fuzz/session.vault").bytes
    }

    /// Decodes a stored session as both vaults do after reading or decrypting it.
    public static func storedSession(_ data: Data) throws -> Session {
        try StoredSession.decode(data).toDomain()
    }

    /// The header's size in bytes.
    public static let headerSize = VaultFileHeader.size

    /// `bytes` with the header checksum (bytes 64..<72) recomputed over the 64 bytes before it, so
    /// that fuzzed headers get past the checksum to the checks behind it (algorithms, scrypt costs,
    /// binding); a random input almost never carries a matching one. Shorter inputs are returned as they are.
    public static func withValidChecksum(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= headerSize else { return bytes }
        var repaired = bytes
        repaired.replaceSubrange(64..<headerSize, with: VaultFileHeader.checksum(Array(bytes[0..<64])))
        return repaired
    }

    /// The scrypt costs of a header that parses: the memory its table takes (128·r·N bytes) and p.
    /// - Throws: `VaultError` when it does not parse.
    public static func scryptCost(_ bytes: [UInt8]) throws(VaultError) -> (memory: UInt64?, parallelism: UInt32) {
        let parameters = try VaultFileHeader.parse(bytes, file: "/fuzz/session.vault").parameters
        return (parameters.memory, parameters.p)
    }

    /// The most memory and parallelism a file may ask scrypt for.
    public static let maximumScryptCost = (memory: ScryptParameters.maximumMemory,
                                           parallelism: ScryptParameters.maximumParallelism)
}

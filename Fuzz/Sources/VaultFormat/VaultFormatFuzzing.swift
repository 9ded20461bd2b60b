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
}

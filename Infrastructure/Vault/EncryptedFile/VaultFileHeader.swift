import Crypto
import Foundation

/// The fixed 72-byte header of an encrypted session file (format version 1), bound to the
/// ciphertext as AES-GCM associated data. `docs/vault.md` describes it byte by byte.
///
/// ```
///  0  8  magic "RIDERVLT"
///  8  1  format version (1)
///  9  1  KDF (1 = scrypt)
/// 10  1  log2 of scrypt N (15)
/// 11  4  scrypt r, big-endian (8)
/// 15  4  scrypt p, big-endian (1)
/// 19  1  cipher (1 = AES-256-GCM)
/// 20 16  salt
/// 36 12  nonce
/// 48 16  key check: HMAC-SHA256(key, "RiderKit vault key check v1"), first 16 bytes
/// 64  8  header checksum: SHA-256 of bytes 0..<64, first 8 bytes
/// 72  …  ciphertext, then the 16-byte GCM tag
/// ```
struct VaultFileHeader: Equatable, Sendable {
    static let magic = Array("RIDERVLT".utf8)
    static let currentVersion: UInt8 = 1
    static let size = 72
    static let tagSize = 16
    static let saltSize = 16
    static let nonceSize = 12
    static let scryptKDF: UInt8 = 1
    static let aes256GCM: UInt8 = 1
    /// Accepted scrypt costs: at least the default, and bounded so a crafted file cannot make
    /// the KDF take minutes or gigabytes.
    static let logNRange: ClosedRange<UInt8> = 15...20
    static let rRange: ClosedRange<UInt32> = 1...32
    static let pRange: ClosedRange<UInt32> = 1...16

    var parameters: ScryptParameters
    var salt: [UInt8]
    var nonce: [UInt8]
    var keyCheck: [UInt8]

    /// The 72 bytes, checksum included.
    var bytes: [UInt8] {
        var out = Self.magic
        out.append(Self.currentVersion)
        out.append(Self.scryptKDF)
        out.append(parameters.logN)
        out += Self.bigEndian(parameters.r)
        out += Self.bigEndian(parameters.p)
        out.append(Self.aes256GCM)
        out += salt
        out += nonce
        out += keyCheck
        out += Self.checksum(out)
        return out
    }

    /// Parses and validates the header at the start of `file`; the rest is ciphertext and tag.
    /// - Throws: ``VaultError/corrupted(file:detail:)`` or ``VaultError/unsupportedVersion(file:version:)``.
    static func parse(_ data: [UInt8], file: String) throws(VaultError) -> VaultFileHeader {
        guard data.count >= magic.count, Array(data[0..<magic.count]) == magic else {
            throw .corrupted(file: file, detail: data.count < magic.count ? "it is truncated" : "it is not a RiderKit vault file")
        }
        guard data.count > 8 else { throw .corrupted(file: file, detail: "it is truncated after the magic") }
        guard data[8] == currentVersion else { throw .unsupportedVersion(file: file, version: Int(data[8])) }
        guard data.count >= size + tagSize else { throw .corrupted(file: file, detail: "it is truncated (\(data.count) bytes)") }
        guard Array(data[64..<72]) == checksum(Array(data[0..<64])) else {
            throw .corrupted(file: file, detail: "its header checksum does not match")
        }
        guard data[9] == scryptKDF, data[19] == aes256GCM else {
            throw .corrupted(file: file, detail: "it names an unknown key derivation or cipher")
        }
        let parameters = ScryptParameters(logN: data[10], r: readUInt32(data, at: 11), p: readUInt32(data, at: 15))
        guard logNRange.contains(parameters.logN), rRange.contains(parameters.r), pRange.contains(parameters.p) else {
            throw .corrupted(file: file, detail: "its scrypt parameters are out of range")
        }
        return VaultFileHeader(parameters: parameters, salt: Array(data[20..<36]), nonce: Array(data[36..<48]),
                               keyCheck: Array(data[48..<64]))
    }

    static func checksum(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes).prefix(8))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    private static func readUInt32(_ data: [UInt8], at offset: Int) -> UInt32 {
        data[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// scrypt's cost parameters as stored in the header.
struct ScryptParameters: Hashable, Sendable {
    /// log2 of N (CPU and memory cost).
    var logN: UInt8
    /// Block size.
    var r: UInt32
    /// Parallelism.
    var p: UInt32

    /// N = 2^15, r = 8, p = 1: 32 MiB and about 0.1 s in a release build (RFC 7914's interactive
    /// setting); the derived key is cached for the life of the process, so it is paid once.
    static let standard = ScryptParameters(logN: 15, r: 8, p: 1)
}

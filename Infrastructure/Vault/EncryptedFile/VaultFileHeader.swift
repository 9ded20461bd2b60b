import Crypto
import Foundation

/// The header of an encrypted session file, bound to the ciphertext as AES-GCM associated data.
/// `docs/vault.md` describes it byte by byte.
///
/// A fixed 72-byte part; in format version 2 it is followed by the server the session belongs to
/// (a 2-byte length, then ``SessionBinding/serialized``), so a file can be refused for another
/// server before any passphrase is asked for, and the binding cannot be altered without the
/// tag failing. Version 1 files (no binding) are still read.
///
/// ```
///  0  8  magic "RIDERVLT"
///  8  1  format version (2; 1 without the binding)
///  9  1  KDF (1 = scrypt)
/// 10  1  log2 of scrypt N (15)
/// 11  4  scrypt r, big-endian (8)
/// 15  4  scrypt p, big-endian (1)
/// 19  1  cipher (1 = AES-256-GCM)
/// 20 16  salt
/// 36 12  nonce
/// 48 16  key check: HMAC-SHA256(key, "RiderKit vault key check v1"), first 16 bytes
/// 64  8  header checksum: SHA-256 of bytes 0..<64, first 8 bytes
/// 72  2  length n of the binding, big-endian (version 2 only)
/// 74  n  the binding: "api <origin>\ntoken <origin>" in UTF-8 (version 2 only)
///  …  …  ciphertext, then the 16-byte GCM tag
/// ```
struct VaultFileHeader: Equatable, Sendable {
    static let magic = Array("RIDERVLT".utf8)
    static let currentVersion: UInt8 = 2
    /// The version written for a file without a binding, and read from files older RiderKits wrote.
    static let unboundVersion: UInt8 = 1
    /// The fixed part; version 2 adds the binding after it.
    static let size = 72
    /// Far beyond any real pair of origins; a larger length is damage, not a server name.
    static let maximumBindingSize = 2048
    static let tagSize = 16
    static let saltSize = 16
    static let nonceSize = 12
    static let scryptKDF: UInt8 = 1
    static let aes256GCM: UInt8 = 1

    var parameters: ScryptParameters
    var salt: [UInt8]
    var nonce: [UInt8]
    var keyCheck: [UInt8]
    /// The server the session belongs to; `nil` in a version 1 file.
    var binding: SessionBinding? = nil

    /// The header's length in the file: where the ciphertext starts.
    var length: Int { Self.size + (binding.map { 2 + $0.serialized.count } ?? 0) }

    /// The header bytes (the fixed 72, checksum included, then the binding if any): exactly the
    /// associated data the GCM tag covers.
    var bytes: [UInt8] {
        var out = Self.magic
        out.append(binding == nil ? Self.unboundVersion : Self.currentVersion)
        out.append(Self.scryptKDF)
        out.append(parameters.logN)
        out += Self.bigEndian(parameters.r)
        out += Self.bigEndian(parameters.p)
        out.append(Self.aes256GCM)
        out += salt
        out += nonce
        out += keyCheck
        out += Self.checksum(out)
        if let binding {
            let serialized = binding.serialized
            out += [UInt8(truncatingIfNeeded: serialized.count >> 8), UInt8(truncatingIfNeeded: serialized.count)]
            out += serialized
        }
        return out
    }

    /// Parses and validates the header at the start of `file`; the rest is ciphertext and tag.
    /// - Throws: ``VaultError/corrupted(file:detail:)`` or ``VaultError/unsupportedVersion(file:version:)``.
    static func parse(_ data: [UInt8], file: String) throws(VaultError) -> VaultFileHeader {
        guard data.count >= magic.count, Array(data[0..<magic.count]) == magic else {
            throw .corrupted(file: file, detail: data.count < magic.count ? "it is truncated" : "it is not a RiderKit vault file")
        }
        guard data.count > 8 else { throw .corrupted(file: file, detail: "it is truncated after the magic") }
        let version = data[8]
        guard version == currentVersion || version == unboundVersion else {
            throw .unsupportedVersion(file: file, version: Int(version))
        }
        guard data.count >= size + tagSize else { throw .corrupted(file: file, detail: "it is truncated (\(data.count) bytes)") }
        guard Array(data[64..<72]) == checksum(Array(data[0..<64])) else {
            throw .corrupted(file: file, detail: "its header checksum does not match")
        }
        guard data[9] == scryptKDF, data[19] == aes256GCM else {
            throw .corrupted(file: file, detail: "it names an unknown key derivation or cipher")
        }
        let parameters = ScryptParameters(logN: data[10], r: readUInt32(data, at: 11), p: readUInt32(data, at: 15))
        // Before any key derivation: a crafted file must not cost gigabytes or minutes to refuse.
        if let refusal = parameters.refusal { throw .corrupted(file: file, detail: refusal) }
        var header = VaultFileHeader(parameters: parameters, salt: Array(data[20..<36]), nonce: Array(data[36..<48]),
                                     keyCheck: Array(data[48..<64]))
        if version == currentVersion {
            guard data.count >= size + 2 else { throw .corrupted(file: file, detail: "it is truncated in its header") }
            let count = Int(data[size]) << 8 | Int(data[size + 1])
            guard count <= maximumBindingSize, data.count >= size + 2 + count + tagSize else {
                throw .corrupted(file: file, detail: "it is truncated in its header")
            }
            guard let binding = SessionBinding.parse(data[(size + 2)..<(size + 2 + count)]) else {
                throw .corrupted(file: file, detail: "its server binding cannot be read")
            }
            header.binding = binding
        }
        return header
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

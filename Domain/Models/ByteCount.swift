import Foundation

/// A size in bytes as people read it: `812 bytes`, `300 KiB`, `4.2 MiB`.
///
/// Binary units, because limits are set in them (5 MiB is 5,242,880 bytes), and rounded down
/// to one decimal, so a file just over a limit never reads as under it.
package struct ByteCount: Hashable, Sendable, CustomStringConvertible {
    package var bytes: Int

    package init(_ bytes: Int) {
        self.bytes = bytes
    }

    package var description: String {
        let kibibyte = 1024.0, mebibyte = 1024.0 * 1024.0
        let value = Double(bytes)
        if value < kibibyte { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        if value < mebibyte { return Self.oneDecimal(value / kibibyte) + " KiB" }
        return Self.oneDecimal(value / mebibyte) + " MiB"
    }

    /// One decimal, rounded down, left out when it is zero.
    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded(.down))
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}

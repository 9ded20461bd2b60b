import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one line from a file descriptor, byte by byte, so nothing after the line is consumed
/// and a writer that keeps the pipe open does not block us.
enum LineInput {
    /// The longest line accepted; a password or email is far shorter.
    static let maximumLength = 4096

    /// - Returns: the line without its `\n` or `\r\n`, or `nil` at end of input with nothing read.
    /// - Throws: ``CLIError/usage(_:)`` when the input cannot be read or is not UTF-8.
    static func readLine(from descriptor: Int32) throws -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIError.usage("Cannot read the input: \(String(cString: strerror(errno))).")
            }
            if count == 0 {
                if bytes.isEmpty { return nil }
                break
            }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
            guard bytes.count <= maximumLength else {
                throw CLIError.usage("The input line is longer than \(maximumLength) bytes.")
            }
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let line = String(validating: bytes, as: UTF8.self) else {
            throw CLIError.usage("The input is not valid UTF-8 text.")
        }
        return line
    }
}

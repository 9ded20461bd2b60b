import Foundation
import NIOCore
import RiderDomain

/// A request body as slices for AsyncHTTPClient's streaming upload, telling `observer` how much
/// has been taken each time the client asks for the next slice (it asks once the previous one
/// is written to the connection), and the whole size when it asks past the end.
struct ProgressReportingBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// 64 KiB: small enough for a bar to move on a slow link, large enough to cost nothing.
    static let sliceSize = 64 * 1024

    let body: Data
    let observer: @Sendable (UploadProgress) -> Void
    let sliceSize: Int

    init(_ body: Data, observer: @escaping @Sendable (UploadProgress) -> Void, sliceSize: Int = Self.sliceSize) {
        self.body = body
        self.observer = observer
        self.sliceSize = Swift.max(1, sliceSize)
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(body: body, observer: observer, sliceSize: sliceSize)
    }

    struct Iterator: AsyncIteratorProtocol {
        let body: Data
        let observer: @Sendable (UploadProgress) -> Void
        let sliceSize: Int
        var offset = 0
        var finished = false

        mutating func next() async throws -> ByteBuffer? {
            guard !finished else { return nil }
            observer(UploadProgress(sentBytes: offset, totalBytes: body.count))
            guard offset < body.count else {
                finished = true
                return nil
            }
            let end = Swift.min(offset + sliceSize, body.count)
            let slice = body[body.startIndex + offset ..< body.startIndex + end]
            offset = end
            return ByteBuffer(bytes: slice)
        }
    }
}

import Foundation

/// The picture formats a rider profile accepts, recognised by their first bytes.
package enum ImageFormat: String, Hashable, Sendable, CaseIterable {
    case jpeg
    case png

    /// The media type the image is sent as (`image/jpeg`, `image/png`).
    package var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        }
    }

    /// The format whose signature `data` starts with, or `nil` for anything else.
    ///
    /// The content decides, never a file name: `photo.png` holding a JPEG is a JPEG, and a text
    /// file named `me.jpg` is no image at all.
    package init?(sniffing data: Data) {
        if data.starts(with: Self.pngSignature) {
            self = .png
        } else if data.starts(with: Self.jpegSignature) {
            self = .jpeg
        } else {
            return nil
        }
    }

    /// The eight bytes every PNG file starts with (PNG specification §5.2).
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Start of image followed by the first marker's `FF` (JPEG, ITU T.81 §B.1.1.2).
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]
}

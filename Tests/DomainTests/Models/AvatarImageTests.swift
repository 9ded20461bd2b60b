import Foundation
import RiderDomain
import Testing

@Suite("AvatarImage")
struct AvatarImageTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D])
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46])

    @Test("PNG and JPEG are recognised by their first bytes; anything else, or a cut-off signature, is not")
    func sniffing() {
        #expect(ImageFormat(sniffing: Self.png) == .png)
        #expect(ImageFormat(sniffing: Self.jpeg) == .jpeg)
        #expect(ImageFormat(sniffing: Data("GIF89a".utf8)) == nil)
        #expect(ImageFormat(sniffing: Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == nil)
        #expect(ImageFormat(sniffing: Self.png.prefix(7)) == nil)
        #expect(ImageFormat(sniffing: Data([0xFF, 0xD8])) == nil)
        #expect(ImageFormat(sniffing: Data()) == nil)
        #expect(ImageFormat.png.mediaType == "image/png")
        #expect(ImageFormat.jpeg.mediaType == "image/jpeg")
    }

    @Test("the content decides the format, not the name: a JPEG called me.png is a JPEG")
    func contentNotName() throws {
        let image = try AvatarImage(data: Self.jpeg, filename: "me.png")
        #expect(image.format == .jpeg)
        #expect(throws: RiderError.invalidAvatar(.unsupportedFormat)) {
            try AvatarImage(data: Data("not a picture".utf8), filename: "me.jpg")
        }
    }

    @Test("an empty file and one byte over the limit are refused; exactly the limit is accepted")
    func sizeLimit() throws {
        #expect(throws: RiderError.invalidAvatar(.empty)) { try AvatarImage(data: Data(), filename: "me.png") }
        let atLimit = Self.png + Data(count: 1024 - Self.png.count)
        #expect(try AvatarImage(data: atLimit, filename: "me.png", maximumByteCount: 1024).data.count == 1024)
        #expect(throws: RiderError.invalidAvatar(.tooLarge(byteCount: 1025, limit: 1024))) {
            try AvatarImage(data: atLimit + Data([0]), filename: "me.png", maximumByteCount: 1024)
        }
        #expect(throws: RiderError.invalidAvatar(.tooLarge(byteCount: 6 * 1024 * 1024, limit: 5 * 1024 * 1024))) {
            try AvatarImage.checkSize(6 * 1024 * 1024)
        }
    }

    @Test("messages give sizes in binary units, in bytes where both would read the same, and say what to do")
    func messages() {
        let mebibyte = 1024 * 1024
        #expect(RiderError.invalidAvatar(.tooLarge(byteCount: 7 * mebibyte + mebibyte / 4, limit: 5 * mebibyte))
            .errorDescription == "The avatar is 7.2 MiB, more than the 5 MiB allowed; choose a smaller image.")
        #expect(RiderError.invalidAvatar(.tooLarge(byteCount: 5 * mebibyte + 1, limit: 5 * mebibyte))
            .errorDescription == "The avatar is 5242881 bytes, more than the 5242880 bytes allowed; choose a smaller image.")
        #expect(AvatarProblem.tooLarge(byteCount: 300 * 1024, limit: nil).message.hasPrefix("is 300 KiB, more than the server accepts"))
        #expect(RiderError.invalidAvatar(.unsupportedFormat).errorDescription?.contains("JPEG or PNG") == true)
        #expect(RiderError.invalidAvatar(.empty).errorDescription == "The avatar is an empty file; choose a JPEG or PNG image.")
    }

    @Test("describing an image names its format and size, never its bytes")
    func description() throws {
        let image = try AvatarImage(data: Self.png, filename: "me.png")
        #expect("\(image)" == "AvatarImage(png, 12 bytes)")
    }
}

import Foundation
import RiderApplication
import Testing

@Suite("MultipartFormData")
struct MultipartFormDataTests {
    static let boundary = "RiderKit-0123456789abcdef0123456789abcdef"
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])

    @Test("one file part, byte for byte: delimiter, Content-Disposition with name and filename, Content-Type, CRLFs, close delimiter")
    func oneFilePart() throws {
        let form = MultipartFormData(parts: [
            .init(name: "avatar", filename: "me.png", contentType: "image/png", data: Self.png),
        ])

        let body = try #require(form.body(boundary: Self.boundary))

        var expected = Data("--\(Self.boundary)\r\n".utf8)
        expected += Data("Content-Disposition: form-data; name=\"avatar\"; filename=\"me.png\"\r\n".utf8)
        expected += Data("Content-Type: image/png\r\n".utf8)
        expected += Data("\r\n".utf8)
        expected += Self.png
        expected += Data("\r\n--\(Self.boundary)--\r\n".utf8)
        #expect(body.data == expected)
        #expect(body.contentType == "multipart/form-data; boundary=\(Self.boundary)")
    }

    @Test("several parts follow each other; a part without filename or type has neither header")
    func severalParts() throws {
        let form = MultipartFormData(parts: [
            .init(name: "note", data: Data("hi".utf8)),
            .init(name: "avatar", filename: "a.jpg", contentType: "image/jpeg", data: Data([0xFF, 0xD8, 0xFF])),
        ])

        let body = try #require(form.body(boundary: "B0"))

        let expected = Data("--B0\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n".utf8)
            + Data("--B0\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            + Data([0xFF, 0xD8, 0xFF]) + Data("\r\n--B0--\r\n".utf8)
        #expect(body.data == expected)
    }

    @Test("a boundary found in a part's content or file name is refused")
    func boundaryInContentRefused() {
        let inContent = MultipartFormData(parts: [.init(name: "avatar", data: Self.png + Data(Self.boundary.utf8))])
        #expect(inContent.body(boundary: Self.boundary) == nil)
        let inName = MultipartFormData(parts: [.init(name: "avatar", filename: "x\(Self.boundary).png", data: Self.png)])
        #expect(inName.body(boundary: Self.boundary) == nil)
    }

    @Test("random boundaries are 128 bits of hex after RiderKit-, and differ from call to call")
    func randomBoundaries() throws {
        var generator = SystemRandomNumberGenerator()
        let boundaries = (0..<20).map { _ in MultipartFormData.randomBoundary(using: &generator) }
        #expect(Set(boundaries).count == 20)
        for boundary in boundaries {
            #expect(boundary.count == 41 && boundary.count <= 70, "RFC 2046 allows at most 70 characters")
            #expect(boundary.hasPrefix("RiderKit-"))
            #expect(boundary.dropFirst(9).allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
    }

    @Test("when the content holds the first random boundary, the body is built under another one that it does not hold")
    func boundaryDrawnAgain() throws {
        var generator = SplitMix64(seed: 7)
        var probe = generator
        let first = MultipartFormData.randomBoundary(using: &probe)
        let content = Self.png + Data("…\r\n--\(first)\r\n…".utf8)
        let form = MultipartFormData(parts: [.init(name: "avatar", filename: "me.png", contentType: "image/png", data: content)])

        let body = form.body(using: &generator)

        let boundary = try #require(body.contentType.split(separator: "=", maxSplits: 1).last.map(String.init))
        #expect(boundary != first)
        #expect(content.range(of: Data(boundary.utf8)) == nil)
        #expect(body.data == form.body(boundary: boundary)?.data)
    }

    @Test("every body gets its own boundary, absent from the content")
    func freshBoundary() throws {
        let form = MultipartFormData(parts: [.init(name: "avatar", filename: "me.png", contentType: "image/png", data: Self.png)])
        let first = form.body(), second = form.body()
        #expect(first.contentType != second.contentType)
        let boundary = try #require(first.contentType.components(separatedBy: "boundary=").last)
        #expect(Self.png.range(of: Data(boundary.utf8)) == nil)
    }

    @Test("file names lose their folders, quotes and control characters, and stay at most 100 characters", arguments: [
        ("me.jpg", "me.jpg"),
        ("../../etc/passwd", "passwd"),
        (#"C:\Users\ana\me.jpg"#, "me.jpg"),
        ("photos/", "photos"),
        (#"me"; name="other.jpg"#, #"me_; name=_other.jpg"#),
        ("evil\r\nX-Injected: 1.jpg", "evil__X-Injected: 1.jpg"),
        ("tab\there\u{7F}.png", "tab_here_.png"),
        ("line\u{2028}break.png", "line_break.png"),
        ("José 🚲.png", "José 🚲.png"),
        ("", "avatar"),
        ("..", "avatar"),
        ("/", "avatar"),
        (String(repeating: "a", count: 300) + ".png", String(repeating: "a", count: 100)),
    ])
    func filenames(name: String, sanitized: String) throws {
        #expect(MultipartFormData.sanitizedFilename(name) == sanitized)
        let body = try #require(MultipartFormData(parts: [.init(name: "avatar", filename: name, data: Self.png)])
            .body(boundary: Self.boundary))
        let header = Data("Content-Disposition: form-data; name=\"avatar\"; filename=\"\(sanitized)\"\r\n\r\n".utf8)
        #expect(body.data.range(of: header) != nil)
    }
}

/// A seeded generator, so a test can know the boundaries that will be drawn.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

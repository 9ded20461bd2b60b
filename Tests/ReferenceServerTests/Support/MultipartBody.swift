import Foundation

/// `multipart/form-data` as a client writes it, spelled out here so the server's parser is
/// checked against bytes, not against another piece of its own code.
struct MultipartBody: Sendable {
    struct Part: Sendable {
        var name: String
        var filename: String? = "me.png"
        var contentType: String? = "image/png"
        var data: Data
    }

    static let boundary = "test-boundary-7d1e"
    var parts: [Part]

    var contentType: String { "multipart/form-data; boundary=\(Self.boundary)" }

    var data: Data {
        var body = Data()
        for part in parts {
            var header = "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { header += "; filename=\"\(filename)\"" }
            header += "\r\n"
            if let contentType = part.contentType { header += "Content-Type: \(contentType)\r\n" }
            body += Data((header + "\r\n").utf8) + part.data + Data("\r\n".utf8)
        }
        return body + Data("--\(Self.boundary)--\r\n".utf8)
    }

    /// One `avatar` part.
    static func avatar(_ data: Data, contentType: String? = "image/png") -> MultipartBody {
        MultipartBody(parts: [Part(name: "avatar", contentType: contentType, data: data)])
    }
}

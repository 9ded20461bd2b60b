import Foundation

/// A `multipart/form-data` body (RFC 7578), built by hand.
///
/// Hand-written rather than taken from vapor/multipart-kit: RiderKit sends one file part, the
/// format is a page of RFC, and a dependency would add its packages to every first build
/// (AsyncHTTPClient's alone take minutes to compile from cold) for what is some 100 lines here,
/// tested byte for byte in `MultipartFormDataTests`.
package struct MultipartFormData: Hashable, Sendable {
    /// One form field; a file when it has a ``filename``.
    package struct Part: Hashable, Sendable {
        /// The form field's name, such as `avatar`.
        package var name: String
        /// The file's name as the server should record it; ``MultipartFormData/sanitizedFilename(_:)``
        /// is applied when the body is built.
        package var filename: String?
        /// The media type of ``data``, such as `image/png`.
        package var contentType: String?
        package var data: Data

        package init(name: String, filename: String? = nil, contentType: String? = nil, data: Data) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.data = data
        }
    }

    package var parts: [Part]

    package init(parts: [Part]) {
        self.parts = parts
    }

    /// The body under a fresh random boundary that occurs nowhere in the parts.
    package func body() -> RequestBody {
        var generator = SystemRandomNumberGenerator()
        return body(using: &generator)
    }

    /// The body under a random boundary from `generator` that occurs nowhere in the parts; a
    /// boundary found in the content is drawn again.
    package func body(using generator: inout some RandomNumberGenerator) -> RequestBody {
        while true {
            // 128 random bits: a second draw is already a one-in-2^128 event, so this loop ends
            // for any generator that does not repeat itself.
            if let body = body(boundary: Self.randomBoundary(using: &generator)) { return body }
        }
    }

    /// The body under `boundary`.
    /// - Returns: `nil` when `boundary` occurs in a part (its content or its headers), where it
    ///   would end the part early.
    package func body(boundary: String) -> RequestBody? {
        let marker = Data(boundary.utf8)
        var data = Data()
        for part in parts {
            guard part.data.range(of: marker) == nil else { return nil }
            var header = "--\(boundary)\r\n"
            header += "Content-Disposition: form-data; name=\"\(Self.headerSafe(part.name))\""
            if let filename = part.filename { header += "; filename=\"\(Self.sanitizedFilename(filename))\"" }
            header += "\r\n"
            if let contentType = part.contentType { header += "Content-Type: \(Self.headerSafe(contentType))\r\n" }
            header += "\r\n"
            guard !header.dropFirst(2 + boundary.count).contains(boundary) else { return nil }
            data.append(Data(header.utf8))
            data.append(part.data)
            data.append(Data("\r\n".utf8))
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return RequestBody(contentType: "multipart/form-data; boundary=\(boundary)", data: data)
    }

    /// `RiderKit-` and 32 hexadecimal digits (128 random bits): only characters RFC 2046 allows
    /// in a boundary without quotes.
    package static func randomBoundary(using generator: inout some RandomNumberGenerator) -> String {
        let high = UInt64.random(in: .min ... .max, using: &generator)
        let low = UInt64.random(in: .min ... .max, using: &generator)
        return "RiderKit-" + hex(high) + hex(low)
    }

    /// A file name safe inside `filename="…"`: the last path component only (no `/` or `\`),
    /// quotes and control characters (CR and LF among them) replaced by `_`, at most 100
    /// characters; `avatar` when nothing usable is left (an empty name, `.` or `..`).
    package static func sanitizedFilename(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(headerSafe(last).prefix(100)).trimmingCharacters(in: .whitespaces)
        return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "." }) ? "avatar" : cleaned
    }

    /// `text` with `"` and every control or line-breaking character replaced by `_`, so it
    /// cannot end a quoted string or a header line.
    private static func headerSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            let unsafe = scalar == "\"" || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator
            return unsafe ? "_" : scalar
        }))
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

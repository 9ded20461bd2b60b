import Foundation

/// A `multipart/form-data` body (RFC 7578, RFC 2046 §5.1) split into its parts.
///
/// Written for the reference server alone (it shares no code with the client), and strict: a
/// body that does not follow the grammar is refused rather than guessed at.
struct MultipartForm: Sendable {
    /// One part with the headers the server reads.
    struct Part: Sendable {
        /// `name` of `Content-Disposition`.
        let name: String?
        /// `filename` of `Content-Disposition`.
        let filename: String?
        /// The part's `Content-Type` without parameters, lowercased; `nil` when absent (which
        /// RFC 7578 §4.4 reads as `text/plain`).
        let mediaType: String?
        let data: Data
    }

    let parts: [Part]

    private static let crlf = Data("\r\n".utf8)
    private static let headerEnd = Data("\r\n\r\n".utf8)

    /// Splits `body` at `boundary`; `nil` when it is not well-formed multipart: no opening
    /// delimiter, a part without the blank line after its headers, no closing delimiter.
    init?(_ body: Data, boundary: String) {
        let delimiter = Data("--\(boundary)".utf8)
        // The opening delimiter starts the body, or follows a preamble and a CRLF.
        var position: Data.Index
        if body.starts(with: delimiter) {
            position = body.startIndex + delimiter.count
        } else if let opening = body.range(of: Self.crlf + delimiter) {
            position = opening.upperBound
        } else {
            return nil
        }
        let nextDelimiter = Self.crlf + delimiter
        var parts: [Part] = []
        while true {
            let rest = body[position...]
            if rest.starts(with: Data("--".utf8)) { break }
            // Transport padding (RFC 2046: linear whitespace) may follow a delimiter.
            let afterPadding = rest.drop(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
            guard afterPadding.starts(with: Self.crlf) else { return nil }
            let headerStart = afterPadding.startIndex + 2
            // A part without headers has its blank line at once.
            var headerText = ""
            var contentStart = headerStart + 2
            if !body[headerStart...].starts(with: Self.crlf) {
                guard let end = body.range(of: Self.headerEnd, in: headerStart..<body.endIndex),
                      let text = String(data: body[headerStart..<end.lowerBound], encoding: .utf8)
                else { return nil }
                headerText = text
                contentStart = end.upperBound
            }
            guard let contentEnd = body.range(of: nextDelimiter, in: contentStart..<body.endIndex),
                  let part = Self.part(headers: headerText, data: body[contentStart..<contentEnd.lowerBound])
            else { return nil }
            parts.append(part)
            position = contentEnd.upperBound
        }
        self.parts = parts
    }

    /// The `boundary` parameter of a `multipart/form-data` media type, or `nil`.
    static func boundary(inContentType header: String) -> String? {
        let (essence, parameters) = HeaderParameters.split(header)
        guard essence == "multipart/form-data", let boundary = parameters["boundary"],
              (1...70).contains(boundary.count) else { return nil }
        return boundary
    }

    private static func part(headers text: String, data: Data) -> Part? {
        var fields: [String: String] = [:]
        for line in text.components(separatedBy: "\r\n") where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let disposition = fields["content-disposition"].map(HeaderParameters.split)
        guard let disposition, disposition.essence == "form-data" else { return nil }
        return Part(name: disposition.parameters["name"], filename: disposition.parameters["filename"],
                    mediaType: fields["content-type"].map { HeaderParameters.split($0).essence },
                    data: Data(data))
    }
}

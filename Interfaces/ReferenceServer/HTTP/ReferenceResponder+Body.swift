import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension ReferenceResponder {
    static let formMediaType = "application/x-www-form-urlencoded"

    /// The media type of the body without parameters, lowercased: `application/json`.
    func mediaType(of request: Request) -> String? {
        guard let header = request.headers[.contentType] else { return nil }
        let essence = header.split(separator: ";", maxSplits: 1).first ?? ""
        return essence.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The whole body, at most `limit` bytes (``maximumBodySize`` unless told).
    /// - Throws: A `413` problem when the body is larger; transport errors as they come.
    func body(of request: Request, limit: Int? = nil) async throws -> Data {
        let limit = limit ?? maximumBodySize
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw APIProblem.contentTooLarge(limit: limit)
        }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw APIProblem.contentTooLarge(limit: limit)
        }
    }

    /// The body as a form.
    /// - Throws: A `400` problem when it is not UTF-8 or not valid form encoding.
    func form(of request: Request) async throws -> FormFields {
        let data = try await body(of: request)
        guard let text = String(validating: data, as: UTF8.self), let form = FormFields(text[...]) else {
            throw APIProblem.badRequest(detail: "The body is not valid application/x-www-form-urlencoded.")
        }
        return form
    }

    /// The query string as fields.
    /// - Throws: A `400` problem when its percent-encoding is broken.
    func query(of request: Request) throws -> FormFields {
        guard let query = FormFields((request.uri.query ?? "")[...]) else {
            throw APIProblem.badRequest(detail: "The query string is not validly percent-encoded.")
        }
        return query
    }

    /// The body as a JSON object, after checking its media type.
    /// - Parameter mediaTypes: Accepted `Content-Type`s; anything else gets `415`.
    /// - Throws: `415`, `413`, or `400` when the body is not JSON or not an object.
    func jsonObject(of request: Request, mediaTypes: [String]) async throws -> [String: JSONValue] {
        guard let type = mediaType(of: request), mediaTypes.contains(type) else {
            var problem = APIProblem.unsupportedMediaType(expected: mediaTypes.joined(separator: " or "))
            if mediaTypes.contains("application/merge-patch+json"), let name = HTTPField.Name("Accept-Patch") {
                problem.headers[name] = mediaTypes.joined(separator: ", ")
            }
            throw problem
        }
        let data = try await body(of: request)
        guard let value = WireCoding.decodeValue(data) else { throw APIProblem.malformedJSON() }
        guard case .object(let object) = value else {
            throw APIProblem.malformedJSON("The body must be a JSON object, not \(value.typeName).")
        }
        return object
    }
}

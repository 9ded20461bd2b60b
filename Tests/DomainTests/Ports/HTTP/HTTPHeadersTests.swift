import Foundation
import RiderDomain
import Testing

@Suite("HTTPHeaders")
struct HTTPHeadersTests {
    @Test("reading a field ignores the case of its name")
    func caseInsensitiveRead() {
        let headers: HTTPHeaders = ["Content-Type": "application/json"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers["Content-Length"] == nil)
    }

    @Test("setting a field replaces every spelling of its name")
    func caseInsensitiveWrite() {
        var headers = HTTPHeaders([("etag", "\"a\""), ("ETAG", "\"b\""), ("Accept", "*/*")])
        headers["ETag"] = "\"c\""
        #expect(headers.fields.filter { $0.name.lowercased() == "etag" }.map(\.value) == ["\"c\""])
        #expect(headers["Accept"] == "*/*")
        headers["etag"] = nil
        #expect(headers["ETag"] == nil)
    }

    @Test("adding keeps earlier fields of the same name, in order; reading returns the first")
    func repeatedFields() {
        var headers = HTTPHeaders()
        headers.add("Set-Cookie", "a=1")
        headers.add("set-cookie", "b=2")
        #expect(headers["SET-COOKIE"] == "a=1")
        #expect(headers.map(\.value) == ["a=1", "b=2"])
        headers.remove("Set-Cookie")
        #expect(headers.fields.isEmpty)
    }

    @Test("equality and hashing ignore the case of names but not of values")
    func equalityAndHashing() {
        let lower: HTTPHeaders = ["etag": "\"v1\""]
        let upper: HTTPHeaders = ["ETag": "\"v1\""]
        #expect(lower == upper)
        #expect(Set([lower, upper]).count == 1)
        #expect(lower != ["ETag": "\"V1\""])
    }

    @Test("names match by ASCII letters only: a name differing in length, punctuation or a non-ASCII letter is another name")
    func asciiFolding() {
        let headers: HTTPHeaders = ["X-Trace-Id": "1", "Ärger": "2"]
        #expect(headers["x-trace-id"] == "1")
        #expect(headers["X-Trace-Id "] == nil)
        #expect(headers["X_Trace_Id"] == nil)
        #expect(headers["X-Trace-I"] == nil)
        #expect(headers["Ärger"] == "2")
        #expect(headers["ärger"] == nil)
        // '@' and '`' sit next to 'A' and 'z' in ASCII; folding must not touch them.
        #expect(HTTPHeaders([("@", "x")])["`"] == nil)
        #expect(HTTPHeaders([("[", "x")])["{"] == nil)
    }
}

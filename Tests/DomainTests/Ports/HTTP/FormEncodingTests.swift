import Foundation
import RiderDomain
import Testing

@Suite("FormEncoding")
struct FormEncodingTests {
    @Test("reserved characters, spaces and non-ASCII round-trip through encode and decode", arguments: [
        "a+b", "a b", "p+ss &=/ wörd%", "100%", "%2B", "a=b&c=d", "tok/en+==", "🚲 ride", "",
    ])
    func roundTrip(value: String) {
        let decoded = FormEncoding.decode(FormEncoding.encode([("name", value), ("next", "x")]))
        #expect(decoded.map(\.0) == ["name", "next"])
        #expect(decoded.map(\.1) == [value, "x"])
    }

    @Test("only A–Z a–z 0–9 * - . _ stay literal; a space is + in bodies and %20 in queries")
    func escaping() {
        #expect(FormEncoding.encode([("k", "aZ09*-._ +&=/~")]) == "k=aZ09*-._+%2B%26%3D%2F%7E")
        #expect(FormEncoding.encode([("k", "a b")], spaceAsPlus: false) == "k=a%20b")
    }

    @Test("decoding reads + and %20 as spaces and keeps pairs in order")
    func decoding() {
        let pairs = FormEncoding.decode("b=1+2&a=3%204&flag&=empty")
        #expect(pairs.map(\.0) == ["b", "a", "flag", ""])
        #expect(pairs.map(\.1) == ["1 2", "3 4", "", "empty"])
    }
}

import Foundation
import RiderApplication
import RiderDomain
import Testing

@Suite("Contract decoding errors")
struct ContractDecodingErrorTests {
    private func message(decoding body: Data) throws -> String {
        let response = HTTPResponse(status: 200, headers: [:], body: body)
        do {
            _ = try API.myPreferences.response(from: response)
        } catch let error as RiderError {
            return error.errorDescription ?? ""
        }
        Issue.record("the body decoded")
        return ""
    }

    // Found by fuzz-user-json (seed regression-control-character-key): the field names on the
    // path of a decoding error can come from the payload, since preferences keep the members the
    // client does not know.
    @Test("a field name from the payload reaches the message without its control characters")
    func controlCharacterInFieldName() throws {
        let body = Data(#"{"latitude": 47.3769, "longitude":7, ""#.utf8) + [0x7F] + Data(#"lace_name": "Z"#.utf8)
            + [0xFF] + Data(#":04:05Z"}"#.utf8)

        let text = try message(decoding: body)

        #expect(text.hasPrefix("The server sent a response RiderKit cannot read"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(text.debugDescription)")
    }

    @Test("a long field name from the payload is cut short in the message")
    func longFieldName() throws {
        let key = String(repeating: "k", count: 5_000)
        let body = Data(#"{"\#(key)": "Z"#.utf8) + [0xFF] + Data(#""}"#.utf8)

        let text = try message(decoding: body)

        #expect(text.contains("kkkk"), "the message names the field: \(text)")
        #expect(text.count < 400, "\(text.count) characters")
    }
}

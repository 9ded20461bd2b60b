import Foundation
import RiderApplication
import RiderDomain
import Testing

/// The user on the hot path (`GET /auth/me`, `GET /users/{id}`) is read straight from the bytes
/// when it is a plain object, by `JSONDecoder` otherwise: the two must never disagree.
@Suite("Users read without JSONDecoder")
struct FlatJSONDecodingTests {
    private static let configuration: APIConfiguration = {
        guard let url = URL(string: "https://api.example.test"), let configuration = try? APIConfiguration(baseURL: url)
        else { preconditionFailure("the test configuration does not build") }
        return configuration
    }()

    /// What `rider-server` answers to `GET /auth/me`.
    static let serverAnswer = #"{"created_at":"2024-01-01T00:00:00Z","display_name":"Demo Rider","email":"demo@example.com","id":"u_000000","rider_type":"learner","role":"user"}"#

    /// Bodies the fast path reads, and bodies it leaves to `JSONDecoder` (which reads some and
    /// refuses others): each must come out as `JSONDecoder` has it, value or message.
    static let bodies: [String] = [
        serverAnswer,
        " \n\t{ \"id\" : \"u_1\" , \"email\":\"a@b.c\",\"display_name\":\"A\" } \r\n",
        #"{"id":"u_1","email":"a@b.c","display_name":"Zoë Ørsted 🚲","role":null,"rider_type":null,"created_at":null}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","age":-12.5e+3,"admin":false,"verified":true,"x":0}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","role":"admin","rider_type":"unknown-kind"}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","created_at":"2024-02-29T23:59:59Z"}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","created_at":"2023-02-29T00:00:00Z"}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","created_at":"2024-01-01T00:00:00.250Z"}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","created_at":"2024-01-01T02:00:00+02:00"}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","created_at":"1500-06-01T00:00:00Z"}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","created_at":"yesterday"}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A \"quoted\" \u00e9\/"}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","profile":{"bio":"x"},"tags":[1,2]}"#,
        #"{"id":"u_1","id":"u_2","email":"a@b.c","display_name":"A"}"#,
        #"{"id":"u_1","email":"a@b.c"}"#,
        #"{"id":42,"email":"a@b.c","display_name":"A"}"#,
        #"{"id":null,"email":"a@b.c","display_name":"A"}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","role":7}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A"} trailing"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A",}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","n":01}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","n":1.}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A","n":tru}"#,
        #"{"id":"u_1","email":"a@b.c","display_name":"A"#,
        #"[{"id":"u_1","email":"a@b.c","display_name":"A"}]"#,
        "{}", "", "null", "\"text\"",
    ]

    /// The bodies, and three that are not UTF-8 text or start with a byte-order mark.
    static let bodyBytes: [Data] = {
        let start = Data(#"{"id":"u_1","email":"a@b.c","display_name":"A"#.utf8)
        let end = Data(#""}"#.utf8)
        let notUTF8: Data = start + Data([0xFF, 0xFE]) + end
        let controlCharacter: Data = start + Data([0x01]) + end
        let byteOrderMark: Data = Data([0xEF, 0xBB, 0xBF]) + Data(serverAnswer.utf8)
        return bodies.map { Data($0.utf8) } + [notUTF8, controlCharacter, byteOrderMark]
    }()

    @Test("the server's answer is read without JSONDecoder")
    func serverAnswerTakesTheFastPath() throws {
        let object = try #require(FlatJSONObject(Data(Self.serverAnswer.utf8)))
        let user = try #require(UserDTO(flat: object)).toDomain()

        #expect(user.id == UserID("u_000000"))
        #expect(user.displayName == "Demo Rider")
        #expect(user.riderType == .learner)
        #expect(user.createdAt == Date(timeIntervalSince1970: 1_704_067_200))
    }

    @Test("every body comes out as JSONDecoder has it: the same user, or the same message",
          arguments: bodyBytes)
    func agreesWithJSONDecoder(_ body: Data) {
        let response = HTTPResponse(status: 200, headers: [:], body: body)
        let read = Result { try API.me(in: Self.configuration).response(from: response) }
        let reference = Result {
            try ContractCoding.decodeWithJSONDecoder(UserDTO.self, from: body, what: "the current user").toDomain()
        }

        switch (read, reference) {
        case (.success(let user), .success(let expected)):
            #expect(user == expected)
            #expect(user.createdAt == expected.createdAt)
        case (.failure(let error), .failure(let expected)):
            #expect((error as? RiderError)?.message == (expected as? RiderError)?.message)
        default:
            Issue.record("\(String(decoding: body, as: UTF8.self).debugDescription): \(read) against JSONDecoder's \(reference)")
        }
    }

    @Test("a body with an escape, a nested value or a key twice is left to JSONDecoder",
          arguments: [#"{"id":"u_\u0031"}"#, #"{"id":"u_1","p":{}}"#, #"{"id":"u_1","p":[]}"#, #"{"id":"a","id":"b"}"#])
    func leavesTheRestToJSONDecoder(_ body: String) {
        #expect(FlatJSONObject(Data(body.utf8)) == nil)
    }

    @Test("an object with more members than the fast reader takes is left to JSONDecoder, which reads it")
    func manyMembersGoToJSONDecoder() throws {
        let extra = (0..<FlatJSONObject.maximumMembers).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let body = Data(("{\"id\":\"u_1\",\"email\":\"a@b.c\",\"display_name\":\"A\"," + extra + "}").utf8)

        #expect(FlatJSONObject(body) == nil)
        let user = try API.me(in: Self.configuration).response(from: HTTPResponse(status: 200, headers: [:], body: body))
        #expect(user.id == UserID("u_1"))
    }

    @Test("the UTC dates read without Foundation's parser are the dates Foundation reads")
    func utcDatesAgreeWithFoundation() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = ["1601-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2000-02-29T12:34:56Z", "2100-03-01T00:00:00Z",
                     "9999-12-31T23:59:59Z", "2024-12-31T23:59:59Z", "1969-12-31T23:59:59Z"]
        for _ in 0..<2_000 {
            let seconds = Double(Int64.random(in: -11_644_473_600...253_402_300_799, using: &generator))
            texts.append(Date(timeIntervalSince1970: seconds).formatted(.iso8601))
        }
        for text in texts {
            let fast = try #require(ContractCoding.parseUTCSeconds(text), "\(text)")
            #expect(fast == (try? Date(text, strategy: .iso8601)), "\(text)")
        }
    }

    @Test("a date the fast reader does not accept goes on to Foundation's parser",
          arguments: ["2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:60Z",
                      "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z", "1600-12-31T00:00:00Z", "2024-01-01t00:00:00z",
                      "2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00+00:00", "+2024-01-01T00:00:00Z", "2024-1-01T00:00:00Z"])
    func unusualDatesGoToFoundation(_ text: String) {
        #expect(ContractCoding.parseUTCSeconds(text) == nil)
        #expect(ContractCoding.parseDate(text) == ((try? Date(text, strategy: .iso8601))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))))
    }
}

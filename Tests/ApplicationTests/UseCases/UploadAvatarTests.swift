import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("UploadAvatar")
struct UploadAvatarTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01])
    static let avatarURL = "https://api.example.test/riders/u_000001/avatar"

    private func upload(_ harness: UseCaseHarness, limit: Int = AvatarImage.defaultMaximumByteCount) -> UploadAvatar {
        UploadAvatar(api: harness.api, configuration: .init(maximumByteCount: limit))
    }

    @Test("a JPEG goes out as multipart/form-data with the bearer token; the answer is the profile with its avatar URL and new tag")
    func uploads() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/riders/me/avatar", times: 1, with: .successful(
            Fixtures.rider(avatarURL: Self.avatarURL), headers: ["ETag": "\"v2\""]))

        let rider = try await harness.uploadAvatar(Self.jpeg, filename: "/home/ada/Pictures/me.jpeg")

        #expect(rider.avatarURL?.absoluteString == Self.avatarURL)
        #expect(rider.entityTag == EntityTag(rawValue: "\"v2\""))
        let request = try #require(harness.transport.requests.only)
        #expect(request.method == .post)
        #expect(request.bearerToken == Fixtures.accessToken)
        let contentType = try #require(request.headers["Content-Type"])
        let boundary = try #require(contentType.components(separatedBy: "multipart/form-data; boundary=").last)
        let expected = MultipartFormData(parts: [
            .init(name: "avatar", filename: "me.jpeg", contentType: "image/jpeg", data: Self.jpeg),
        ]).body(boundary: boundary)
        #expect(request.body == expected?.data, "one part named avatar, the file name without its folders")
    }

    @Test("an image over the limit is refused before any request is sent")
    func tooLarge() async throws {
        let harness = try UseCaseHarness.signedIn()
        let large = Self.jpeg + Data(count: 2048)

        await #expect(throws: RiderError.invalidAvatar(.tooLarge(byteCount: large.count, limit: 1024))) {
            try await upload(harness, limit: 1024)(large, filename: "me.jpg")
        }
        #expect(throws: RiderError.invalidAvatar(.tooLarge(byteCount: 4096, limit: 1024))) {
            try upload(harness, limit: 1024).checkSize(4096)
        }
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("a file that is not a JPEG or PNG is refused whatever its name, and an empty one too, before any request")
    func wrongType() async throws {
        let harness = try UseCaseHarness.signedIn()

        await #expect(throws: RiderError.invalidAvatar(.unsupportedFormat)) {
            try await harness.uploadAvatar(Data("GIF89a\u{01}\u{00}".utf8), filename: "me.png")
        }
        await #expect(throws: RiderError.invalidAvatar(.empty)) {
            try await harness.uploadAvatar(Data(), filename: "me.png")
        }
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("a 401 renews the session once and sends the same upload again with the new token")
    func refreshesOnceAfter401() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/riders/me/avatar", times: 2) { request in
            request.bearerToken == "access-2"
                ? .successful(Fixtures.rider(avatarURL: Self.avatarURL), headers: ["ETag": "\"v2\""])
                : .problem(status: 401, headers: ["WWW-Authenticate": "Bearer realm=\"rider\", error=\"invalid_token\""])
        }
        harness.stubTokenEndpoint(times: 1)

        let rider = try await harness.uploadAvatar(Self.jpeg, filename: "me.jpg")

        #expect(rider.avatarURL?.absoluteString == Self.avatarURL)
        let uploads = harness.transport.requests(.post, "/riders/me/avatar")
        #expect(uploads.map(\.bearerToken) == [Fixtures.accessToken, "access-2"])
        #expect(uploads.count == 2 && uploads[0].body == uploads[1].body)
        #expect(harness.transport.count(.post, harness.path(harness.configuration.tokenPath)) == 1)
        #expect(await harness.vault.storedSession?.accessToken == "access-2")
    }

    @Test("the progress closure reaches the transport through the session engine, on the renewed attempt too")
    func progressReachesTheTransport() async throws {
        let harness = try UseCaseHarness.signedIn()
        // What an adapter does: it reports to whoever the task-local names while it sends.
        harness.transport.stub(.post, "/riders/me/avatar", times: 2) { request in
            let size = request.body?.count ?? 0
            UploadProgress.observer?(UploadProgress(sentBytes: 0, totalBytes: size))
            UploadProgress.observer?(UploadProgress(sentBytes: size, totalBytes: size))
            return request.bearerToken == "access-2"
                ? .successful(Fixtures.rider(avatarURL: Self.avatarURL), headers: ["ETag": "\"v2\""])
                : .problem(status: 401, headers: ["WWW-Authenticate": "Bearer realm=\"rider\", error=\"invalid_token\""])
        }
        harness.stubTokenEndpoint(times: 1)
        let heard = UploadProgressRecorder()

        _ = try await upload(harness)(Self.jpeg, filename: "me.jpg", progress: { heard.append($0) })

        let size = try #require(harness.transport.requests(.post, "/riders/me/avatar").first?.body?.count)
        #expect(heard.values.map(\.sentBytes) == [0, size, 0, size], "each attempt reports from zero")
        #expect(heard.values.allSatisfy { $0.totalBytes == size })
        #expect(UploadProgress.observer == nil, "set for the call only")
    }

    @Test("without a progress closure no observer is set, so adapters send the body whole")
    func noProgressNoObserver() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/riders/me/avatar", times: 1) { _ in
            UploadProgress.observer == nil
                ? .successful(Fixtures.rider(avatarURL: Self.avatarURL), headers: ["ETag": "\"v2\""])
                : .problem(status: 500, detail: "an observer was set")
        }

        _ = try await upload(harness)(Self.jpeg, filename: "me.jpg")
    }

    @Test("a 503 or a dropped connection is not retried: the server may have stored the picture", arguments: [
        (StubReply.problem(status: 503), RiderError.Code.server), (StubReply.unreachable, .serverUnreachable),
    ])
    func postIsNotRetried(reply: StubReply, code: RiderError.Code) async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/riders/me/avatar", times: 1, with: reply)

        let failure = await #expect(throws: RiderError.self) { try await harness.uploadAvatar(Self.jpeg, filename: "me.jpg") }
        #expect(failure?.code == code, "\(String(describing: failure))")
        #expect(harness.transport.count(.post, "/riders/me/avatar") == 1)
    }

    @Test("the server's 413 and 415 are .invalidAvatar, its 400 with field errors .invalidInput naming them")
    func serverRefusals() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/riders/me/avatar", inOrder: [
            .problem(status: 413, detail: "The avatar must not exceed 1048576 bytes."),
            .problem(status: 415, detail: "The avatar must be image/jpeg or image/png."),
            .problem(status: 400, errors: [(field: "avatar", message: "is not a JPEG image")]),
        ])

        await #expect(throws: RiderError.invalidAvatar(.tooLarge(byteCount: Self.jpeg.count, limit: nil))) {
            try await harness.uploadAvatar(Self.jpeg, filename: "me.jpg")
        }
        await #expect(throws: RiderError.invalidAvatar(.unsupportedFormat)) {
            try await harness.uploadAvatar(Self.jpeg, filename: "me.jpg")
        }
        await #expect(throws: RiderError.invalidInput([FieldProblem(field: "avatar", message: "is not a JPEG image")])) {
            try await harness.uploadAvatar(Self.jpeg, filename: "me.jpg")
        }
    }

    @Test("a success without the profile's ETag is a malformed response: the next edit would have no base")
    func requiresEntityTag() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/riders/me/avatar", times: 1, with: .successful(Fixtures.rider(avatarURL: Self.avatarURL)))

        let error = await #expect(throws: RiderError.self) { try await harness.uploadAvatar(Self.jpeg, filename: "me.jpg") }
        guard let riderError = error, riderError.code == .malformedResponse, case let what = riderError.detail ?? "" else {
            Issue.record("expected .malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(what.contains("ETag"))
    }

    @Test("the user cache is left as it was: it holds what members see of a user, and no avatar")
    func cacheUntouched() async throws {
        let harness = try UseCaseHarness.signedIn()
        let me = User(id: Fixtures.userID, email: Fixtures.email, displayName: Fixtures.displayName, riderType: .learner)
        try await harness.cache.store(me, entityTag: EntityTag(rawValue: "\"user-1\""), at: Fixtures.epoch)
        let before = try await harness.cache.statistics()
        harness.transport.stub(.post, "/riders/me/avatar", times: 1, with: .successful(
            Fixtures.rider(avatarURL: Self.avatarURL), headers: ["ETag": "\"v2\""]))

        _ = try await harness.uploadAvatar(Self.jpeg, filename: "me.jpg")

        #expect(try await harness.cache.statistics() == before, "no lookups counted, nothing stored or dropped")
    }
}

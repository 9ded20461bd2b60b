import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: profile avatar")
struct AvatarTests {
    /// A PNG signature followed by `count` bytes that are not.
    static func png(bytes count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            + Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private func write(_ data: Data, named name: String, in sandbox: Sandbox) throws -> String {
        let file = sandbox.root.appendingPathComponent(name)
        try data.write(to: file)
        return file.path
    }

    @Test("uploads a PNG, prints the profile with its avatar URL, and the server gives the picture back byte for byte")
    func upload() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            let picture = Self.png(bytes: 300 * 1024)
            let path = try write(picture, named: "portrait.png", in: sandbox)

            let run = try await sandbox.rider("profile", "avatar", path)

            #expect(run.status == 0, "\(run)")
            #expect(run.lines.first == "Avatar uploaded.", "\(run)")
            let expectedURL = server.baseURL.absoluteString + "/riders/\(Demo.userID)/avatar"
            #expect(run.lines.contains { $0.hasPrefix("avatar") && $0.hasSuffix(expectedURL) }, "\(run)")
            #expect(run.stderr.isEmpty, "no progress bar or other output when stderr is not a terminal: \(run)")

            let show = try await sandbox.rider("profile", "show", "--json")
            let profile = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
            let avatarURL = try #require((profile["avatar_url"] as? String).flatMap(URL.init(string:)))
            #expect(avatarURL.absoluteString == expectedURL)
            let direct = DirectAPI(baseURL: server.baseURL)
            let fetched = try await direct.download(avatarURL, token: try await direct.accessToken())
            #expect(fetched.status == 200)
            #expect(fetched.contentType == "image/png")
            #expect(fetched.data == picture, "the same bytes came back")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("with --json, stdout is the profile as one JSON document and stderr stays empty")
    func json() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(count: 1024)
            let run = try await sandbox.rider("profile", "avatar", try write(jpeg, named: "me.jpg", in: sandbox), "--json")

            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.isEmpty, "\(run)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect(body["avatar_url"] as? String == server.baseURL.absoluteString + "/riders/\(Demo.userID)/avatar")
            #expect((body["etag"] as? String)?.isEmpty == false)
        }
    }

    @Test("a file too large, empty, not a JPEG or PNG, a folder or missing exits 9 naming avatar, before any request",
          arguments: ["too-large", "empty", "text", "folder", "missing"])
    func refusedLocally(kind: String) async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            let path: String
            switch kind {
            case "too-large": path = try write(Self.png(bytes: 5 * 1024 * 1024), named: "huge.png", in: sandbox)
            case "empty": path = try write(Data(), named: "empty.png", in: sandbox)
            case "text": path = try write(Data("not a picture\n".utf8), named: "notes.png", in: sandbox)
            case "folder": path = sandbox.root.path
            default: path = sandbox.root.appendingPathComponent("nowhere.png").path
            }
            let requestsBefore = await server.store.stats().requests

            let run = try await sandbox.rider("profile", "avatar", path, "--json")

            #expect(run.status == 9, "\(run)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(run.stderr.utf8)) as? [String: Any], "\(run)")
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["code"] as? String == "invalid_avatar")
            #expect((error["fields"] as? [[String: Any]])?.compactMap { $0["field"] as? String } == ["avatar"])
            #expect(await server.store.stats().requests == requestsBefore, "refused before any request")
        }
    }

    @Test("a human-readable refusal is one sentence that says what to do")
    func humanMessage() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            let run = try await sandbox.rider("profile", "avatar", try write(Data("GIF89a".utf8), named: "anim.gif", in: sandbox))
            #expect(run.status == 9, "\(run)")
            #expect(run.errorLines == ["rider: error: The avatar must be a JPEG or PNG image, and this file's content is neither "
                + "(its name does not count)."], "\(run)")
        }
    }
}

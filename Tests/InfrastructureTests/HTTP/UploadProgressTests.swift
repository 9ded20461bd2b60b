import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

/// Upload progress as the transports report it, through the whole stack to the reference server.
@Suite("Upload progress against the reference server on loopback")
struct UploadProgressTests {
    /// A 3 MiB JPEG (its first bytes say so; the rest is filler the server keeps as it is).
    static let picture = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    @Test("an avatar upload reports progress from 0 to the whole body, never backwards, and arrives whole",
          arguments: TransportKind.allCases)
    func reportsProgress(_ kind: TransportKind) async throws {
        // An hour's tokens: under the whole suite on two cores a 3 MiB upload can outlast the
        // default minute, and the avatar is then fetched with an expired token.
        try await withReferenceServer(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let transport = kind.make(timeout: 60)
            let kit = try server.riderKit(transport: transport)
            let session = try await kit.login(.referenceDemo)
            let heard = UploadProgressRecorder()

            let rider = try await kit.profile.uploadAvatar(Self.picture, filename: "me.jpg", progress: { heard.append($0) })

            let reports = heard.values
            let total = try #require(reports.last?.totalBytes)
            #expect(total > Self.picture.count, "the multipart body: the picture and its part headers")
            #expect(reports.allSatisfy { $0.totalBytes == total })
            #expect(reports.last?.sentBytes == total, "ends at 100 %")
            #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.sentBytes <= $1.sentBytes }, "never backwards")
            #expect(reports.count >= 3, "moves in steps, not in one jump: \(reports.map(\.sentBytes))")

            let avatarURL = try #require(rider.avatarURL)
            // The session as it is now: a slow upload under load may have renewed it meanwhile.
            let current = try await kit.sessions.currentSession() ?? session
            let served = try await transport.send(HTTPRequest(
                method: .get, url: avatarURL, headers: ["Authorization": "Bearer \(current.accessToken)"]))
            try #require(served.status == 200, "\(String(decoding: served.body.prefix(300), as: UTF8.self))")
            // Compared outside #expect: on a mismatch it would diff two 3 MiB collections, which
            // takes hours and holds a thread of the concurrency pool the whole test run shares.
            let arrivedWhole = served.body == Self.picture
            #expect(arrivedWhole, "\(served.body.count) bytes served, \(Self.picture.count) uploaded")
        }
    }
}

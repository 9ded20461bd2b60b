import Foundation
import RiderDomain
import RiderInfrastructure
import TestSupport
import Testing

/// A throwaway recording folder, a stub server behind a recorder, and ways to look at what was
/// written.
struct RecordingFixture {
    let directory: TemporaryDirectory
    let server = StubTransport()
    let clock = ManualClock()

    init() throws { directory = try TemporaryDirectory() }

    /// The recording, inside the temporary folder so that making it is part of what is tested.
    var folder: URL { directory.url.appendingPathComponent("session", isDirectory: true) }

    /// A recorder in front of ``server``, as one process would make it.
    func recorder() -> RecordingTransport { RecordingTransport(base: server, folder: folder, clock: clock) }

    /// Answers `GET path` with 200 after moving ``clock`` on by `seconds`, as a server that
    /// takes that long to answer.
    func stubTakingTime(_ path: String, seconds: TimeInterval) {
        server.stub(.get, path) { [clock] _ in
            clock.advance(by: seconds)
            return .status(200)
        }
    }

    /// A request to `https://api.example.test` + `path` (which may carry a query).
    func request(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], body: String? = nil) throws -> HTTPRequest {
        guard let url = URL(string: "https://api.example.test" + path) else { throw URLError(.badURL) }
        return HTTPRequest(method: method, url: url, headers: headers, body: body.map { Data($0.utf8) })
    }

    /// Every file and folder under the recording, hidden ones included.
    func everything() -> [URL] {
        let items = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (items?.compactMap { $0 as? URL } ?? []).sorted { $0.path < $1.path }
    }

    /// The recording's files, as paths relative to it.
    func files() -> [String] {
        everything().filter { !$0.hasDirectoryPath && !isFolder($0) }.map { String($0.path.dropFirst(folder.path.count + 1)) }
    }

    func isFolder(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// A recorded file as JSON.
    func json(_ relativePath: String) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent(relativePath))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    func remove() { directory.remove() }
}

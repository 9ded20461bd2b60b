import Foundation
import RiderInfrastructure
import Testing

@Suite("XDG directories")
struct XDGDirectoriesTests {
    @Test("XDG variables are used when they are absolute paths")
    func absoluteVariables() {
        let directories = XDGDirectories(environment: [
            "HOME": "/home/ana", "XDG_STATE_HOME": "/var/state", "XDG_CACHE_HOME": "/var/cache",
            "XDG_CONFIG_HOME": "/etc/ana",
        ])
        #expect(directories.stateHome.path == "/var/state")
        #expect(directories.cacheHome.path == "/var/cache")
        #expect(directories.configHome.path == "/etc/ana")
    }

    @Test("missing or relative XDG variables fall back to the defaults under HOME")
    func defaults() {
        let directories = XDGDirectories(environment: ["HOME": "/home/ana", "XDG_STATE_HOME": "relative/state"])
        #expect(directories.stateHome.path == "/home/ana/.local/state")
        #expect(directories.cacheHome.path == "/home/ana/.cache")
        #expect(directories.configHome.path == "/home/ana/.config")
    }

    @Test("a server origin becomes a safe, readable folder name", arguments: [
        ("https://api.example.com", "https-api.example.com"),
        ("http://127.0.0.1:41234", "http-127.0.0.1-41234"),
        ("https://[::1]:8443", "https-1-8443"),
        ("", "default"),
        ("../../etc", "etc"),
    ])
    func folderNames(origin: String, expected: String) {
        #expect(XDGDirectories.folderName(forOrigin: origin) == expected)
    }
}

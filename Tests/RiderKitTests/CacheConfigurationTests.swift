import Foundation
import RiderInfrastructure
import RiderKit
import Testing

@Suite("RiderKit.Configuration: the user cache settings")
struct CacheConfigurationTests {
    typealias Home = ConfigurationTests.Home

    func load(_ extra: [String: String], config: String? = nil) throws -> RiderKit.Configuration {
        let home = try Home(config: config)
        defer { home.remove() }
        var environment = home.environment
        environment["RIDER_BASE_URL"] = "https://api.example.com"
        environment.merge(extra) { $1 }
        return try RiderKit.Configuration.load(environment: environment)
    }

    @Test("by default users are cached in SQLite under the XDG cache folder, 5 minutes fresh, 50,000 at most, cleared on logout")
    func defaults() throws {
        let cache = try load([:]).cache

        #expect(cache.storage == .sqlite(nil))
        #expect(cache.settings.timeToLive == 300)
        #expect(cache.maximumEntries == 50_000)
        #expect(cache.clearsOnLogout)
    }

    @Test("the default file is per server: $XDG_CACHE_HOME/rider/<origin>/users.sqlite")
    func defaultFile() {
        let directories = XDGDirectories(environment: ["HOME": "/home/ana", "XDG_CACHE_HOME": "/var/cache/ana"])
        let file = SQLiteUserCache.defaultFile(forOrigin: "https://api.example.com:8443", in: directories)
        let folder = XDGDirectories.folderName(forOrigin: "https://api.example.com:8443")
        #expect(folder.hasPrefix("https-api.example.com-8443-"))
        #expect(file.path == "/var/cache/ana/rider/\(folder)/users.sqlite")
    }

    @Test("the environment sets storage, TTL, bound and keeping the cache on logout")
    func environment() throws {
        let cache = try load([
            "RIDER_CACHE": "sqlite:/tmp/somewhere/users.sqlite", "RIDER_CACHE_TTL": "60",
            "RIDER_CACHE_MAX_USERS": "1000", "RIDER_CACHE_KEEP_ON_LOGOUT": "true",
        ]).cache

        #expect(cache.storage == .sqlite(URL(fileURLWithPath: "/tmp/somewhere/users.sqlite")))
        #expect(cache.settings.timeToLive == 60)
        #expect(cache.maximumEntries == 1_000)
        #expect(!cache.clearsOnLogout)
    }

    @Test("a configured sqlite: path is partitioned by server: one server's cached users are never another's")
    func configuredPathPerServer() {
        let configured = URL(fileURLWithPath: "/srv/cache/users.sqlite")
        let a = CacheConfiguration.file(named: configured, forOrigin: "http://127.0.0.1:8080")
        let b = CacheConfiguration.file(named: configured, forOrigin: "http://127.0.0.1:9090")
        #expect(a != b)
        #expect(a.deletingLastPathComponent() == configured.deletingLastPathComponent())
        #expect(a.lastPathComponent == "users@\(XDGDirectories.folderName(forOrigin: "http://127.0.0.1:8080")).sqlite")
    }

    @Test("the config file sets them too, with JSON numbers and booleans; the environment wins")
    func configFile() throws {
        let config = #"{"cache": "memory", "cache_ttl": 30, "cache_max_users": 10, "cache_keep_on_logout": true}"#
        let fromFile = try load([:], config: config).cache
        #expect(fromFile.storage == .memory)
        #expect(fromFile.settings.timeToLive == 30 && fromFile.maximumEntries == 10 && !fromFile.clearsOnLogout)

        let overridden = try load(["RIDER_CACHE": "sqlite"], config: config).cache
        #expect(overridden.storage == .sqlite(nil))
    }

    @Test("bad values are .invalidConfiguration naming the setting", arguments: [
        ("RIDER_CACHE", "sqlite:relative/path"), ("RIDER_CACHE", "redis"), ("RIDER_CACHE_TTL", "-1"),
        ("RIDER_CACHE_TTL", "soon"), ("RIDER_CACHE_MAX_USERS", "0"), ("RIDER_CACHE_MAX_USERS", "2.5"),
        ("RIDER_CACHE_KEEP_ON_LOGOUT", "maybe"),
    ])
    func rejects(variable: String, value: String) throws {
        let error = #expect(throws: RiderError.self) { try load([variable: value]) }
        guard let riderError = error, riderError.code == .invalidConfiguration, case let message = riderError.detail ?? "" else {
            Issue.record("expected .invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(message.contains(value), "\(message)")
    }

    @Test("RIDER_CACHE=memory wires an in-memory cache: nothing is written under the cache folder")
    func memoryWritesNothing() async throws {
        let home = try Home()
        defer { home.remove() }
        var environment = home.environment
        environment["RIDER_BASE_URL"] = "https://api.example.com"
        environment["RIDER_CACHE"] = "memory"
        environment["RIDER_VAULT"] = "memory"
        let rider = try RiderKit.live(configuration: .load(environment: environment))

        let stats = try await rider.cache.statistics()

        #expect(stats.location.hasPrefix("memory"))
        #expect(!FileManager.default.fileExists(atPath: home.url.appendingPathComponent(".cache").path))
    }
}

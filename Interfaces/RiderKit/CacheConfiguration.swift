import Foundation
import Logging
import RiderApplication
import RiderDomain
import RiderInfrastructure

/// Where and how ``RiderKit/live(configuration:)`` caches users.
public struct CacheConfiguration: Hashable, Sendable {
    /// Where cached users live.
    public enum Storage: Hashable, Sendable {
        /// A SQLite file: `$XDG_CACHE_HOME/rider/<server>/users.sqlite`, or one per server beside
        /// the given path (`/path/users.sqlite` → `/path/users@<server>.sqlite`), so one server's
        /// cached users are never shown for another.
        case sqlite(URL?)
        /// For this process only: nothing is written to disk.
        case memory

        /// Parses the `cache` setting: `sqlite`, `sqlite:/path/to/users.sqlite` or `memory`.
        package init?(setting: String) {
            switch setting.lowercased() {
            case "sqlite", "file": self = .sqlite(nil)
            case "memory", "none": self = .memory
            default:
                guard setting.hasPrefix("sqlite:") else { return nil }
                let path = String(setting.dropFirst("sqlite:".count))
                guard path.hasPrefix("/") else { return nil }
                self = .sqlite(URL(fileURLWithPath: path))
            }
        }
    }

    /// Where cached users live; a SQLite file unless told.
    public var storage: Storage
    /// Time to live and stale window.
    public var settings: CacheSettings
    /// The most users kept; the least recently used go first.
    public var maximumEntries: Int
    /// Whether `logout` empties the cache (so the next person at the machine does not see it).
    public var clearsOnLogout: Bool

    /// - Parameters:
    ///   - storage: SQLite at the default path unless told.
    ///   - settings: 5 minutes fresh, 1 day stale-while-revalidate window unless told.
    ///   - maximumEntries: 50,000 unless told.
    ///   - clearsOnLogout: `true` unless told.
    public init(storage: Storage = .sqlite(nil), settings: CacheSettings = CacheSettings(),
                maximumEntries: Int = SQLiteUserCache.Configuration.defaultMaximumEntries, clearsOnLogout: Bool = true) {
        self.storage = storage
        self.settings = settings
        self.maximumEntries = maximumEntries
        self.clearsOnLogout = clearsOnLogout
    }

    /// Reads the cache settings (`cache`, `cache_ttl`, `cache_max_users`, `cache_keep_on_logout`).
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` naming the bad setting.
    init(_ file: ConfigurationFile.Settings) throws {
        self.init()
        if let value = file.cache {
            guard let parsed = Storage(setting: value) else {
                throw RiderError.invalidConfiguration(
                    "the cache '\(value)' must be 'sqlite', 'sqlite:/absolute/path/users.sqlite' or 'memory'")
            }
            storage = parsed
        }
        if let value = file.cacheTimeToLive {
            guard let seconds = TimeInterval(value), seconds >= 0, seconds <= 31_536_000 else {
                throw RiderError.invalidConfiguration("the cache time to live '\(value)' must be 0 to 31536000 seconds")
            }
            settings.timeToLive = seconds
        }
        if let value = file.cacheMaximumUsers {
            guard let count = Double(value).flatMap(Int.init(exactly:)), count >= 1, count <= 10_000_000 else {
                throw RiderError.invalidConfiguration("the cache size '\(value)' must be a whole number of users, 1 to 10000000")
            }
            maximumEntries = count
        }
        if let value = file.cacheKeepOnLogout {
            switch value.lowercased() {
            case "1", "true", "yes", "1.0": clearsOnLogout = false
            case "0", "false", "no", "0.0": clearsOnLogout = true
            default:
                throw RiderError.invalidConfiguration("cache_keep_on_logout '\(value)' must be true or false")
            }
        }
    }

    /// Where the sport catalogue is kept: `sports.json` next to the SQLite cache (per server, as
    /// the cache is), or memory.
    func makeSportCatalogue(forOrigin origin: String, in directories: XDGDirectories) -> any SportCatalogueCache {
        switch storage {
        case .memory:
            return InMemorySportCatalogueCache()
        case .sqlite(let file):
            let next = file.map {
                Self.file(named: $0.deletingLastPathComponent().appendingPathComponent("sports.json"), forOrigin: origin)
            }
            return FileSportCatalogueCache(file: next ?? FileSportCatalogueCache.defaultFile(forOrigin: origin, in: directories))
        }
    }

    /// Where `account`'s sport catalogue is kept on `origin`: beside the server's, named for the account.
    func makeSportCatalogue(forOrigin origin: String, account: UserID, in directories: XDGDirectories)
        -> any SportCatalogueCache
    {
        guard let shared = makeSportCatalogue(forOrigin: origin, in: directories) as? FileSportCatalogueCache else {
            return InMemorySportCatalogueCache()
        }
        return FileSportCatalogueCache(file: AccountFile.file(shared.file, for: account))
    }

    /// The cache adapter of `account` on `origin`: its own SQLite file beside the server's
    /// (`users.<account key>.sqlite`), so one account's cached users and searches are never shown
    /// to another.
    func makeCache(forOrigin origin: String, account: UserID, in directories: XDGDirectories,
                   logger: Logger?) -> any UserCache {
        switch storage {
        case .memory:
            return InMemoryUserCache(maximumEntries: maximumEntries)
        case .sqlite(let file):
            let file = file.map { Self.file(named: $0, forOrigin: origin) }
                ?? SQLiteUserCache.defaultFile(forOrigin: origin, in: directories)
            return SQLiteUserCache(configuration: .init(file: AccountFile.file(file, for: account),
                                                        maximumEntries: maximumEntries), logger: logger)
        }
    }

    /// The file a configured cache path stands for on one server: `users.sqlite` becomes
    /// `users@<server>.sqlite` in the same folder (`<server>` as in the default folders), so a
    /// path shared by several servers keeps their caches apart.
    package static func file(named configured: URL, forOrigin origin: String) -> URL {
        let folder = configured.deletingLastPathComponent()
        let name = configured.lastPathComponent
        let server = XDGDirectories.folderName(forOrigin: origin)
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let partitioned = dot.map { "\(name[..<$0])@\(server)\(name[$0...])" } ?? "\(name)@\(server)"
        return folder.appendingPathComponent(partitioned)
    }
}

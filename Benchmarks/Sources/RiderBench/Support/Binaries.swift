import Foundation

/// The other executables of this package, built next to `rider-bench` by the same `swift build`.
enum Binaries {
    static var folder: URL {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        if let override = ProcessInfo.processInfo.environment["RIDER_BIN_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return me.deletingLastPathComponent()
    }

    /// `RIDER_CLI` names the `rider` to measure when it is not the one beside rider-bench:
    /// `make bench` passes the statically linked build `make install` installs.
    static var staticCLI: URL? {
        ProcessInfo.processInfo.environment["RIDER_CLI"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
    }

    static func url(_ name: String) throws -> URL {
        if name == "rider", let cli = staticCLI, FileManager.default.isExecutableFile(atPath: cli.path) { return cli }
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw BenchFailure("\(url.path) is missing; build it first (make bench does)")
        }
        return url
    }
}

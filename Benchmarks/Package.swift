// swift-tools-version:6.1
import PackageDescription

// Benchmarks live in their own package so `make test` never builds them and the main package
// gains no dependency for them. Always run in release mode: `make bench-cache`.
let package = Package(
    name: "RiderKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RiderKit", path: ".."),
    ],
    targets: [
        // The floor: the raw sqlite3 C API, the same system library GRDB builds on.
        .systemLibrary(
            name: "CSQLite3",
            path: "Sources/CSQLite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .executableTarget(
            name: "rider-cache-bench",
            dependencies: [.product(name: "RiderKit", package: "RiderKit"), "CSQLite3"],
            path: "Sources/CacheBenchmark",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
